# expect: logs_each_call
# Prints every value at run time, which is the right mechanism, but printing does not put anything in log.
import jax

log = []


@jax.jit
def compute(x):
    jax.debug.print("compute got {x}", x=x)
    return x * 2
