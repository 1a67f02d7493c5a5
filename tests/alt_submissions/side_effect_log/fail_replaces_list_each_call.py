# expect: logs_each_call
# Wrong: the callback rebinds log to a new one-item list on every call; the message says only the last input is left.
import jax

log = []


def _record(v):
    global log
    log = [float(v)]  # overwrites instead of appending


@jax.jit
def compute(x):
    jax.debug.callback(_record, x)
    return x * 2
