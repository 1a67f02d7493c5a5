# expect: runs
# Tries to turn x into a Python number inside jit: x is a tracer with no value while compute is traced.
import jax

log = []


@jax.jit
def compute(x):
    log.append(float(x))
    return x * 2
