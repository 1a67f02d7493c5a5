# expect: logs_each_call
# The callback appends to a new local list, not the module's log.
import jax

log = []


def _record(v):
    log = []
    log.append(float(v))


@jax.jit
def compute(x):
    jax.debug.callback(_record, x)
    return x * 2
