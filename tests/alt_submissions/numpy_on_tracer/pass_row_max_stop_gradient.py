# expect: pass
# Each row's own maximum, held out of the gradient as jax.nn.softmax does: the shift changes nothing but the range.
import jax
import jax.numpy as jnp


@jax.jit
def attention_weights(q, k):
    scores = q @ k.T / jnp.sqrt(8.0)
    e = jnp.exp(scores - jax.lax.stop_gradient(scores.max(axis=1, keepdims=True)))
    return e / e.sum(axis=1, keepdims=True)
