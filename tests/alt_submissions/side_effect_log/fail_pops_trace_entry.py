# expect: logs_each_call
# Wrong: appends a tracer while tracing and tries to pop it in the callback; the tracer entry stays (a tracer has .item).
import jax

log = []


def _record(v):
    # replace the tracer entry left from tracing, then append
    if log and not hasattr(log[-1], "item"):
        log.pop()
    log.append(v)


@jax.jit
def compute(x):
    log.append(x)
    jax.debug.callback(_record, x)
    return x * 2
