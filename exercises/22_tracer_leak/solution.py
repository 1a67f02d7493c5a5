import jax
import jax.numpy as jnp


@jax.jit
def center(state, x):
    # Functional state: the old state comes in as an argument, the new one goes out with the result.
    # Nothing is stored outside the function, so no tracer outlives the trace.
    rows = x.shape[0]
    count = state["count"] + rows
    mean = state["mean"] + (jnp.sum(x, axis=0) - rows * state["mean"]) / count
    return {"mean": mean, "count": count}, x - mean
