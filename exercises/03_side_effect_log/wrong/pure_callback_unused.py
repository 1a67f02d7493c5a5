# expect: logs_each_call
# Sends the value to Python with pure_callback but ignores its result: a "pure" function whose result is unused
# is dead code, so JAX removes it and log.append never runs.
import jax
import jax.numpy as jnp
import numpy as np

log = []


def _record(v):
    log.append(float(v))
    return np.float32(0.0)


@jax.jit
def compute(x):
    jax.pure_callback(_record, jax.ShapeDtypeStruct((), jnp.float32), x)
    return x * 2
