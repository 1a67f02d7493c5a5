# expect: nan_free
# A home-made custom_jvp around p * log(p), masked with where; its rule differentiates the same unsafe code.
import jax
import jax.numpy as jnp


@jax.custom_jvp
def plogp(p):
    return jnp.where(p > 0, p * jnp.log(p), 0.0)


@plogp.defjvp
def _plogp_jvp(primals, tangents):
    (p,), (t,) = primals, tangents
    return plogp(p), t * jnp.where(p > 0, jnp.log(p) + 1.0, 0.0)


@jax.jit
def entropy(logits):
    p = jax.nn.softmax(logits, axis=-1)
    return -jnp.sum(plogp(p), axis=-1)
