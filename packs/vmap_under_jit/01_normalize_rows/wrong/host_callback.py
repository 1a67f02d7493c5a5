# expect: in_program
# NumPy on the host does the whole batch at once, and the program only fetches the answer.
import jax
import jax.numpy as jnp
import numpy as np

EPS = 1e-5


def normalize_row(x):
    # One row: subtract its mean, divide by its standard deviation. Keep this function as it is.
    mean = jnp.mean(x)
    var = jnp.mean((x - mean) ** 2)
    return (x - mean) / jnp.sqrt(var + EPS)


def _normalize_on_host(xs):
    xs = np.asarray(xs, dtype=np.float64)
    mean = xs.mean(axis=1, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=1, keepdims=True)
    return ((xs - mean) / np.sqrt(var + EPS)).astype(np.float32)


@jax.jit
def normalize_rows(xs):
    return jax.pure_callback(_normalize_on_host, jax.ShapeDtypeStruct(xs.shape, xs.dtype), xs)
