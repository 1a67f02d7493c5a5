import jax
import jax.numpy as jnp

_running = {}  # the running statistics, carried from one call to the next


@jax.jit
def center(state, x):
    # Start from the statistics kept in _running; the state passed in only matters the first time.
    state = _running.get("state", state)
    rows = x.shape[0]
    count = state["count"] + rows
    mean = state["mean"] + (jnp.sum(x, axis=0) - rows * state["mean"]) / count
    # TODO: jit runs this body only while tracing, so _running receives tracers, not numbers, and no
    # later call ever updates it. The state it should carry never leaves the function.
    _running["state"] = {"mean": mean, "count": count}
    return state, x - mean


# Not graded: a scratch run (F6 in the app, `jittrainer run tracer_leak` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    state = {"mean": jnp.zeros(2), "count": jnp.int32(0)}
    print(center(state, jnp.array([[1.0, 2.0], [3.0, 4.0]])))
    print(center(state, jnp.array([[5.0, 6.0]])))
