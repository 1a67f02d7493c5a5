# expect: pass
import jax
import numpy as np

log = []


def remember(value):
    log.append(np.asarray(value).item())


@jax.jit
def compute(x):
    jax.debug.callback(remember, x, ordered=True)
    return x + x
