# expect: drawn_from_key
# Seeds NumPy from the key's data inside a host callback: reproducible per key, but the noise is drawn on
# the host, outside the compiled program, on every call.
import jax
import numpy as np

NOISE = 0.1


def _draw(key_data):
    rng = np.random.default_rng(np.asarray(key_data))
    return rng.standard_normal((64, 16)).astype(np.float32)


@jax.jit
def add_noise(x, key):
    noise = jax.pure_callback(_draw, jax.ShapeDtypeStruct(x.shape, x.dtype), jax.random.key_data(key))
    return x + NOISE * noise
