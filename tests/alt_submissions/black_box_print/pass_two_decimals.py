# expect: pass
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit)
def normalize(x):
    jax.debug.print("mean {m:.2f} (std {s:.2f})", m=jnp.mean(x), s=jnp.std(x))
    centered = x - jnp.mean(x)
    return centered / jnp.sqrt(jnp.mean(centered**2))
