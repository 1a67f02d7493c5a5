# expect: pass
# A custom_jvp of my own whose value and rule both work in log space: nothing unsafe inside, nothing masked.
import jax
import jax.numpy as jnp


@jax.custom_jvp
def neg_plogp(logp):
    return -jnp.exp(logp) * logp


@neg_plogp.defjvp
def _rule(primals, tangents):
    (logp,), (t,) = primals, tangents
    return neg_plogp(logp), -jnp.exp(logp) * (logp + 1.0) * t


@jax.jit
def entropy(logits):
    return jnp.sum(neg_plogp(jax.nn.log_softmax(logits, axis=-1)), axis=-1)
