# expect: reaches_jit
# Computes the means with NumPy and hands them through a jitted function with a static windows tuple.
from functools import partial

import jax
import numpy as np


@partial(jax.jit, static_argnames="windows")
def _finish(means, windows):
    return means


def pyramid_pool(x, windows):
    xs = np.asarray(x, dtype=np.float64)
    means = np.concatenate([xs.reshape(-1, w).mean(axis=1) for w in windows]).astype(np.float32)
    return _finish(means, windows=tuple(windows))
