# expect: pass
# Window means from a running sum (differences of a cumulative sum): other float32 rounding than reshape().mean(),
# within the tolerance fitted to float32 at the size of the data.
import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnums=1)
def _pool(x, windows):
    c = jnp.concatenate([jnp.zeros(1, x.dtype), jnp.cumsum(x)])
    parts = []
    for w in windows:
        edges = c[::w]
        parts.append((edges[1:] - edges[:-1]) / w)
    return jnp.concatenate(parts)


def pyramid_pool(x, windows):
    return _pool(x, tuple(windows))
