# expect: pass
# argwhere with a fixed size, padding slots masked by position; compiled ahead of time.
import jax
import jax.numpy as jnp


def _pick(x):
    good = x > 0
    count = jnp.count_nonzero(good)
    idx = jnp.argwhere(good, size=16, fill_value=0)[:, 0]
    kept = jnp.where(jnp.arange(16) < count, x[idx], 0.0)
    mean = jnp.where(count > 0, kept.sum() / jnp.maximum(count, 1), 0.0)
    return kept, count, mean


pick_good = jax.jit(_pick).lower(jax.ShapeDtypeStruct((16,), jnp.float32)).compile()
