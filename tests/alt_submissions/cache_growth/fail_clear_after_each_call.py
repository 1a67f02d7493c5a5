# expect: compiles
# jax.clear_caches() after every batch, to be safe.
import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        losses.append(float(batch_loss(params, x, y)))
        jax.clear_caches()
    return sum(losses) / len(losses)
