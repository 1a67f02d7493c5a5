# expect: nan_free
# A stable softmax, then each row's p * log(p), masked with where, inside a lax.scan over the rows: the masked
# 0 * log(0) still makes a NaN in every row with an underflowed probability, inside the loop body.
import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    p = jax.nn.softmax(logits, axis=-1)

    def row(carry, q):
        terms = jnp.where(q > 0, q * jnp.log(q), 0.0)
        return carry, -jnp.sum(terms)

    return jax.lax.scan(row, 0.0, p)[1]
