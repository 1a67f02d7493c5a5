# expect: no_leak
# Returns the right state, and also records each count in a module-level dict from an ordered io_callback.
import jax
import numpy as np
from jax.experimental import io_callback

HISTORY = {}


def _remember(count):
    HISTORY[len(HISTORY)] = np.asarray(count)
    return np.int32(0)


def center(state, x):
    count = state["count"] + x.shape[0]
    io_callback(_remember, jax.ShapeDtypeStruct((), np.int32), count, ordered=True)
    mean = state["mean"] + (x.sum(axis=0) - x.shape[0] * state["mean"]) / count
    return {"mean": mean, "count": count}, x - mean
