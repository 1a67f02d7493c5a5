# expect: logs_each_call
# Wrong: the callback appends int(v), cutting the fraction; the message says the values were made whole.
import jax

log = []


@jax.jit
def compute(x):
    jax.debug.callback(lambda v: log.append(int(v)), x)
    return x * 2
