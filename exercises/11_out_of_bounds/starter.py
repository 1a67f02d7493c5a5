import jax


@jax.jit
def lookup_prices(prices, dishes):
    # TODO: NumPy raises IndexError for a number outside the array. What does JAX do
    # with dish n, dish n + 5 or dish -1?
    return prices[dishes]
