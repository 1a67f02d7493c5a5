# expect: in_program
# The formula is right, but NumPy computes it on the host and the program only fetches it.
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    # The squared error of one example: x is one row, y one number. Keep this function as it is.
    return (jnp.dot(w, x) - y) ** 2


def _grads_on_host(w, xs, ys):
    w, xs, ys = (np.asarray(a, dtype=np.float64) for a in (w, xs, ys))
    return (2 * (xs @ w - ys)[:, None] * xs).astype(np.float32)


@jax.jit
def per_example_grads(w, xs, ys):
    return jax.pure_callback(_grads_on_host, jax.ShapeDtypeStruct(xs.shape, xs.dtype), w, xs, ys)
