# expect: live_programs
# "A fresh jit for each task starts with an empty cache": not for the same function. jax.jit(f) made again on the
# same Python function shares f's cache, so every program stays alive.
import jax
import jax.numpy as jnp


def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    loss = jax.jit(batch_loss)
    losses = [float(loss(params, x, y)) for x, y in task]
    return sum(losses) / len(losses)
