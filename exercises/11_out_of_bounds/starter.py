import jax


@jax.jit
def lookup_prices(prices, dishes):
    # TODO: NumPy raises IndexError for a number outside the array. What does JAX do
    # with dish n, dish n + 5 or dish -1?
    return prices[dishes]


# Not graded: a scratch run (F6 in the app, `jittrainer run out_of_bounds` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    prices = jnp.arange(1.0, 9.0)
    dishes = jnp.array([0, 7, 8, -1, 1000] + [2] * 11, dtype=jnp.int32)
    print(lookup_prices(prices, dishes))
