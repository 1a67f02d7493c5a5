# expect: pass
# jax.clear_caches() as each task begins; the mean over batches in plain Python.
import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    jax.clear_caches()
    total = 0.0
    for x, y in task:
        total += float(batch_loss(params, x, y))
    return total / len(task)
