# expect: new_per_key
# Keeps a global key and advances it: the split runs while tracing, once, so the noise is frozen anyway.
import jax

NOISE = 0.1
KEY = jax.random.key(0)


@jax.jit
def add_noise(x, key):
    global KEY
    KEY, sub = jax.random.split(KEY)
    return x + NOISE * jax.random.normal(sub, x.shape)
