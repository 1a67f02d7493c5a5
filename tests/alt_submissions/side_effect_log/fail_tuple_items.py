# expect: logs_each_call
# Collects the callback's positional arguments as a tuple: log items are tuples, not numbers.
import jax

log = []


@jax.jit
def compute(x):
    jax.debug.callback(lambda *args: log.append(args), x)
    return x * 2
