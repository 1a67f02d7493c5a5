# expect: compiles
# jax.clear_caches() at the start of each task is a right boundary, but it empties JAX's own caches too: the eager
# jnp.mean at the end compiles again in every task, on top of the task's own program.
import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    jax.clear_caches()
    losses = [batch_loss(params, x, y) for x, y in task]
    return float(jnp.mean(jnp.stack(losses)))
