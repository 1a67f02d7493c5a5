# expect: logs_each_call
# Logs at run time, but the result instead of the input.
import jax

log = []


@jax.jit
def compute(x):
    y = x * 2
    jax.debug.callback(log.append, y)
    return y
