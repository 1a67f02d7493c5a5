# expect: pass
# The function's own cache emptied once the task is done.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = np.array([batch_loss(params, x, y) for x, y in task], dtype=np.float64)
    batch_loss.clear_cache()
    return float(losses.mean())
