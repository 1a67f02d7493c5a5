# expect: live_programs
# Cleared only every twelfth task: bounded, but twelve programs pile up between two clears.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def batch_loss(params, x, y):
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


count = [0]


def evaluate(params, task):
    score = float(np.mean([batch_loss(params, x, y) for x, y in task]))
    count[0] += 1
    if count[0] % 12 == 0:
        jax.clear_caches()
    return score
