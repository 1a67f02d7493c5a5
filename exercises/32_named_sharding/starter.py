import jax
import jax.numpy as jnp


@jax.jit
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    # TODO: nothing says where x or the results should live, so jit puts x on one device and runs the whole
    # program there; the other devices sit idle, and both results come back on that one device.
    return _normalize(x)
