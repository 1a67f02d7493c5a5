# expect: runs
# Jits a fresh lambda with rows baked in on every call. But reshape_rows itself is a plain function, so the
# grader wraps it in jax.jit with no options: rows is already a tracer when the lambda is built.
import jax


def reshape_rows(x, rows):
    return jax.jit(lambda y: y.reshape((rows, -1)))(x)
