# expect: deterministic
# Fetches the masks from the host with a callback and NumPy's global generator: new masks on every call, but not
# from the key, so the same key does not give the same views.
import jax
import jax.numpy as jnp
import numpy as np


def _masks(shape_probe):
    return (np.random.random((2,) + shape_probe.shape) < 0.75)


@jax.jit
def two_views(key, x):
    masks = jax.pure_callback(_masks, jax.ShapeDtypeStruct((2,) + x.shape, jnp.bool_), x)
    return jnp.where(masks[0], x / 0.75, 0.0), jnp.where(masks[1], x / 0.75, 0.0), jax.random.split(key)[0]
