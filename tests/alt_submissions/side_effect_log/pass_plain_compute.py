# expect: pass
# Not decorated: the grader wraps compute in jax.jit.
import jax

log = []


def compute(x):
    jax.debug.callback(log.append, x)
    return x * 2
