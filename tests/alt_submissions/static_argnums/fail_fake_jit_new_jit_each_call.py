# expect: runs
# Wrong: a plain function faking .lower/.trace builds a new jit per call; the grader jits it, so rows is traced.
import jax


def reshape_rows(x, rows):
    # builds a new jitted function for every call: rows is baked in, but nothing is reused
    f = jax.jit(lambda v: v.reshape((rows, -1)))
    return f(x)


_probe = jax.jit(lambda x: x)
reshape_rows.lower = _probe.lower
reshape_rows.trace = _probe.trace
