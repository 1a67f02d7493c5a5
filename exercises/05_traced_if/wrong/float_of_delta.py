# expect: runs
# Tries to get a plain number out of the tracer first: while tracing there is none.
import jax


@jax.jit
def heat(delta):
    d = float(delta)
    if d > 0:
        return 1.5 * d + 2.0
    return 0.25 * d
