# expect: values
# Switches to jax.numpy but drops the max subtraction: exp overflows float32 on large scores, giving NaN.
import jax
import jax.numpy as jnp


@jax.jit
def attention_weights(q, k):
    scores = (q @ k.T) / jnp.sqrt(q.shape[-1])
    e = jnp.exp(scores)
    return e / jnp.sum(e, axis=-1, keepdims=True)
