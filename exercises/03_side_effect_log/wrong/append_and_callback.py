# expect: logs_each_call
# Adds a callback but keeps the old append: the callback logs every call, and the plain append still drops a
# tracer into log while tracing.
import jax

log = []


@jax.jit
def compute(x):
    log.append(x)
    jax.debug.callback(log.append, x)
    return x * 2
