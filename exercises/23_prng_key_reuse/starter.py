import jax
import jax.numpy as jnp

KEEP = 0.75  # each element survives with this probability


@jax.jit
def two_views(key, x):
    # TODO: both views are drawn with the same key, so they drop exactly the same elements; and the
    # same key is handed back, so the next call draws the same masks again.
    keep_a = jax.random.bernoulli(key, KEEP, x.shape)
    keep_b = jax.random.bernoulli(key, KEEP, x.shape)
    return jnp.where(keep_a, x / KEEP, 0.0), jnp.where(keep_b, x / KEEP, 0.0), key


# Not graded: a scratch run (F6 in the app, `jittrainer run prng_key_reuse` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    view_a, view_b, key = two_views(jax.random.key(0), jnp.ones(8))
    print(view_a)
    print(view_b)
