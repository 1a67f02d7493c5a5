# expect: values
# Computes the lengths with NumPy on the host and hands them back through a callback: the numbers are right, but
# the statement fails Values for a callback whose result the program uses (and jax.grad could not differentiate it).
import jax
import jax.numpy as jnp
import numpy as np


def _host_lengths(v):
    return np.linalg.norm(np.asarray(v), axis=-1).astype(np.float32)


@jax.jit
def lengths(v):
    return jax.pure_callback(_host_lengths, jax.ShapeDtypeStruct(v.shape[:1], jnp.float32), v)
