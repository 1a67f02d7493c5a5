# expect: values
# No global any more, but it hands back the state it was given: the count and the mean never move on.
import jax
import jax.numpy as jnp


@jax.jit
def center(state, x):
    rows = x.shape[0]
    count = state["count"] + rows
    mean = state["mean"] + (jnp.sum(x, axis=0) - rows * state["mean"]) / count
    return state, x - mean
