# expect: no_leak
# Returns the new state correctly, but also appends every running mean to a module-level list for a dashboard:
# the list receives tracers while jit traces center.
import jax
import jax.numpy as jnp

history = []  # every running mean, for plotting later


@jax.jit
def center(state, x):
    rows = x.shape[0]
    count = state["count"] + rows
    mean = state["mean"] + (jnp.sum(x, axis=0) - rows * state["mean"]) / count
    history.append(mean)
    return {"mean": mean, "count": count}, x - mean
