import jax
import jax.numpy as jnp


def chunk_sum(chunk):
    """Runs on one device: the sum of squares of that device's share of x."""
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    # TODO: pmap gives each device one entry of axis 0, so this only works when len(x) is at most the number of
    # devices, and it uses all of them only when len(x) is exactly that number.
    partial_sums = jax.pmap(chunk_sum)(x)
    return jnp.sum(partial_sums)


# Not graded: a scratch run (F6 in the app, `jittrainer run pmap_shards` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    print(jax.local_device_count(), "devices")
    print(sum_of_squares(jnp.arange(4.0)))
    print(sum_of_squares(jnp.arange(10.0)))
