# expect: pass
# Uses the library: softmax (stable) and scipy's entr, which defines 0 * log 0 as 0.
import jax
import jax.numpy as jnp
from jax.scipy.special import entr


def entropy(logits):
    return jnp.sum(entr(jax.nn.softmax(logits, axis=-1)), axis=-1)
