# expect: finite
# Hopes more precision cures the overflow: without jax_enable_x64 the cast stays float32, and
# exp(900) overflows even in float64.
import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    z = logits.astype(jnp.float64)
    p = jnp.exp(z) / jnp.sum(jnp.exp(z), axis=-1, keepdims=True)
    return (-jnp.sum(p * jnp.log(p), axis=-1)).astype(jnp.float32)
