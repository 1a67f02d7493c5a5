# expect: normal_noise
# Draws from the key, but uniform numbers on [0, 1): not centred on 0, and not normal.
import jax

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    noise = jax.random.uniform(key, x.shape)
    return x + NOISE * noise
