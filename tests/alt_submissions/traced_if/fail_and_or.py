# expect: runs
# The and/or idiom still asks the tracer for a Python boolean.
import jax


@jax.jit
def heat(delta):
    return (delta > 0 and 1.5 * delta + 2.0) or 0.25 * delta
