# expect: values
# jax.nn.standardize computes the variance as mean(x**2) - mean(x)**2 by default: the narrow rows (a large mean,
# a tiny spread) lose their digits in float32.
import jax


@jax.jit
def normalize_rows(xs):
    return jax.nn.standardize(xs, axis=1, epsilon=1e-5)
