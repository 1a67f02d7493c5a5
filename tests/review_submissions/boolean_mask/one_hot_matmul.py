# expect: pass
# review: review.cost.work
# Heavy but right: each good value's slot comes from a cumulative sum, and the values are moved there by a 16×16
# one-hot matrix product at HIGHEST precision instead of a gather: XLA reads and writes far more bytes.
import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    good = x > 0
    count = jnp.sum(good)
    slot = jnp.cumsum(good) - 1
    onehot = (slot[:, None] == jnp.arange(x.shape[0])[None, :]) & good[:, None]
    kept = jnp.dot(x, onehot.astype(x.dtype), precision=jax.lax.Precision.HIGHEST)
    total = jnp.sum(jnp.where(good, x, 0.0))
    mean = jnp.where(count > 0, total / jnp.maximum(count, 1), 0.0)
    return kept, count, mean
