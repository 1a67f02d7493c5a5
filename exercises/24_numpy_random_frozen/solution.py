import jax

NOISE = 0.1  # the noise's standard deviation


@jax.jit
def add_noise(x, key):
    # jax.random draws inside the compiled program, from the key it is given: a new key gives new
    # noise on every call, and the same key gives the same noise again.
    noise = jax.random.normal(key, x.shape, x.dtype)
    return x + NOISE * noise
