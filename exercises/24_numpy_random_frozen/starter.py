import jax
import numpy as np

NOISE = 0.1  # the noise's standard deviation


@jax.jit
def add_noise(x, key):
    # TODO: np.random draws these numbers once, while JAX traces add_noise, and the compiled
    # program keeps them as a constant: every call adds the same "noise", whatever its key.
    noise = np.random.normal(size=x.shape)
    return x + NOISE * noise


# Not graded: a scratch run (F6 in the app, `jittrainer run numpy_random_frozen` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax.numpy as jnp

    x = jnp.zeros((64, 16))
    print(add_noise(x, jax.random.key(0))[0, :4])
    print(add_noise(x, jax.random.key(1))[0, :4])
