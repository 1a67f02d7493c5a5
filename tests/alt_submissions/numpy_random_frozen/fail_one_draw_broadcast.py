# expect: normal_noise
# One normal number per call, added to every element: new per key, but not one draw per element.
import jax

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    return x + NOISE * jax.random.normal(key)
