# expect: pass
# A cap instead of a boundary: the cache is emptied whenever it already holds 4 programs.
import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


seen = set()


def evaluate(params, task):
    n = task[0][0].shape[1]
    if n not in seen and len(seen) >= 4:
        batch_loss.clear_cache()
        seen.clear()
    seen.add(n)
    return sum(float(batch_loss(params, x, y)) for x, y in task) / len(task)
