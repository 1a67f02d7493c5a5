# expect: returns_state
# Returns the new state, but the count comes back as a float: the state no longer looks like the one that went in.
import jax
import jax.numpy as jnp


@jax.jit
def center(state, x):
    count = state["count"] + x.shape[0] * 1.0
    mean = state["mean"] + (jnp.sum(x, axis=0) - x.shape[0] * state["mean"]) / count
    return {"mean": mean, "count": count}, x - mean
