import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # log_softmax subtracts each row's largest logit before exp: nothing overflows to inf, and the
    # largest term is always exp(0) = 1, so the sum is never 0.
    logp = jax.nn.log_softmax(logits, axis=-1)
    # A tiny probability underflows to 0, but its log stays finite (logp), so 0 * logp is 0, never 0 * -inf.
    return -jnp.sum(jnp.exp(logp) * logp, axis=-1)
