# expect: no_leak
# Returns the new state, and also keeps "the latest state" in a global for other code to read.
import jax
import jax.numpy as jnp

LATEST = None


@jax.jit
def center(state, x):
    global LATEST
    count = state["count"] + x.shape[0]
    mean = state["mean"] + (jnp.sum(x, axis=0) - x.shape[0] * state["mean"]) / count
    LATEST = {"mean": mean, "count": count}
    return LATEST, x - mean
