# expect: new_per_key
# Reproducible, yes: but from the seed the statement shows, not from the key it is given.
import jax

NOISE = 0.1


@jax.jit
def add_noise(x, key):
    return x + NOISE * jax.random.normal(jax.random.key(42), x.shape)
