# expect: values
# Hides the NaN instead of fixing it: the NaN rows become 0, which is not their entropy.
import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    p = jnp.exp(logits) / jnp.sum(jnp.exp(logits), axis=-1, keepdims=True)
    return jnp.nan_to_num(-jnp.sum(p * jnp.log(p), axis=-1))
