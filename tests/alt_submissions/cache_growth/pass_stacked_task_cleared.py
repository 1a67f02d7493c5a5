# expect: pass
# The three batches of a task stacked into one call that returns the task's score; the cache emptied per task.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def task_score(params, xs, ys):
    feats = jnp.tanh(xs[..., None] * params["w_in"] + params["b_in"])  # [3, 8, n, 16]
    pred = feats.mean(axis=2) @ params["w_out"] + params["b_out"]  # [3, 8]
    return jnp.mean((pred - ys) ** 2, axis=1).mean()


def evaluate(params, task):
    task_score.clear_cache()
    xs = np.stack([x for x, _ in task])
    ys = np.stack([y for _, y in task])
    return float(task_score(params, xs, ys))
