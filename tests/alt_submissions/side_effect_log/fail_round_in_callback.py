# expect: one_compile
# Issue case: logs at run time, but rounds (to six places, harmless here) with jax.numpy inside the callback.
# The callback receives a jax.Array, so jnp.round runs eagerly and compiles on the first call: the message must
# say that, naming the callback.
import jax
import jax.numpy as jnp

log = []


@jax.jit
def compute(x):
    jax.debug.callback(lambda v: log.append(float(jnp.round(v, 6))), x)
    return x * 2
