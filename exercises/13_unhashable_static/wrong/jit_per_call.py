# expect: one_per_value
# Sidesteps static arguments by closing over the windows in a new jitted lambda on every call:
# each call is a new function, so nothing is ever reused.
import jax
import jax.numpy as jnp


def pyramid_pool(x, windows):
    ws = tuple(windows)
    return jax.jit(lambda v: jnp.concatenate([v.reshape(-1, w).mean(axis=1) for w in ws]))(x)
