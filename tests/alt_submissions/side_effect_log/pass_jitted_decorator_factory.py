# expect: pass
# The 0.8.1+ decorator factory form, with no options, and a callback via keyword argument.
import jax

log = []


@jax.jit()
def compute(x):
    jax.debug.callback(lambda *, value: log.append(float(value)), value=x)
    return x * 2.0
