# expect: pass
# review: review.left.dead
# Right, with leftovers: NaN checks written while hunting the NaN are computed and never used.
import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    logp = jax.nn.log_softmax(logits, axis=-1)
    p = jnp.exp(logp)
    bad_p = jnp.any(jnp.isnan(p))  # noqa: F841 - left from the hunt
    bad_logp = jnp.any(jnp.isinf(logp))  # noqa: F841
    smallest = jnp.min(p)  # noqa: F841
    return -jnp.sum(p * logp, axis=-1)
