# expect: pass
# lax.switch on the lumpy test, compiled ahead of time at import: the grader reads the jaxpr lower() traced, where
# every matrix product sits in a branch of the cond.
import jax
import jax.numpy as jnp
from jax import lax

ROUNDS = 16


def simmer(x, w):
    return lax.fori_loop(0, ROUNDS, lambda _, y: y + 0.1 * jnp.tanh(w @ y), x)


def quick(x):
    return 0.5 * x


def _finish(x, w):
    index = (jnp.max(jnp.abs(x)) > 1.0).astype(jnp.int32)
    return lax.switch(index, [lambda x, w: quick(x), simmer], x, w)


finish = jax.jit(_finish).lower(jnp.zeros((128, 32), jnp.float32), jnp.zeros((128, 128), jnp.float32)).compile()
