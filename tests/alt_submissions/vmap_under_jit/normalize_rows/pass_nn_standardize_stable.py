# expect: pass
# jax.nn.standardize with the two-pass variance: the mean of the squared deviations, as normalize_row computes it.
import jax


@jax.jit
def normalize_rows(xs):
    return jax.nn.standardize(xs, axis=1, epsilon=1e-5, algorithm="stable")
