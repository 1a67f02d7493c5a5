# expect: no_leak
# No tracer leaks: the running statistics live on the host and a callback updates them on every call. But that keeps
# what center computes in a module-level dict (no_leak counts the numbers module-level names hold), and there is
# only one set of statistics for everyone, so two interleaved streams mix, and a replay moves them again.
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

_host = {"total": None, "count": 0}


def _update(batch):
    batch = np.asarray(batch, np.float64)
    total = batch.sum(axis=0) if _host["total"] is None else _host["total"] + batch.sum(axis=0)
    _host["total"], _host["count"] = total, _host["count"] + batch.shape[0]
    return (total / _host["count"]).astype(np.float32), np.int32(_host["count"])


@jax.jit
def center(state, x):
    shapes = (jax.ShapeDtypeStruct(state["mean"].shape, jnp.float32), jax.ShapeDtypeStruct((), jnp.int32))
    mean, count = io_callback(_update, shapes, x, ordered=True)
    return {"mean": mean, "count": count}, x - mean
