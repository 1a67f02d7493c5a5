# expect: one_compile
# Turns lr into a JAX array inside the function, hoping that makes it traced: but it is still a static
# argument of the jitted function, so every new value is a new cache key and a new compile.
from functools import partial

import jax
import jax.numpy as jnp

MAX_LR = 0.5


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@partial(jax.jit, static_argnames="lr")
def sgd_step(w, x, y, lr):
    step = jnp.minimum(jnp.asarray(lr, dtype=jnp.float32), MAX_LR)
    return w - step * jax.grad(loss)(w, x, y)
