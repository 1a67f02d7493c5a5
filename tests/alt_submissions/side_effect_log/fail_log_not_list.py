# expect: error:contract
# Replaces the list with a dict keyed by call number.
import jax

log = {}


@jax.jit
def compute(x):
    jax.debug.callback(lambda v: log.__setitem__(len(log), float(v)), x)
    return x * 2
