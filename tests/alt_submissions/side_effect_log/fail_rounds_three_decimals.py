# expect: logs_each_call
# Issue case: written for inputs with three decimals (what the old grader drew): it rounds each logged value to
# three places on the host. Inputs drawn over the whole range (six decimals, tiny values) expose it.
import jax

log = []


@jax.jit
def compute(x):
    jax.debug.callback(lambda v: log.append(round(float(v), 3)), x)
    return x * 2
