# expect: pass
# The callback rebinds the module's log to a new list each time; the grader reads the module's log at the end.
import jax

log = []


def _add(v):
    global log
    log = log + [float(v)]


def _compute(x):
    jax.debug.callback(_add, x)
    return x * 2


compute = jax.jit(_compute)
