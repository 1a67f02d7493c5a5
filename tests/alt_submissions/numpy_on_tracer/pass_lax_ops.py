# expect: pass
# Written with jax.lax primitives and a reciprocal multiply.
import jax
from jax import lax


@jax.jit
def attention_weights(q, k):
    scores = lax.dot_general(q, k, (((1,), (1,)), ((), ()))) * lax.rsqrt(float(q.shape[-1]))
    scores = scores - lax.reduce_max(scores, axes=(1,))[:, None]
    e = lax.exp(scores)
    return e * (1.0 / lax.reduce_sum(e, axes=(1,)))[:, None]
