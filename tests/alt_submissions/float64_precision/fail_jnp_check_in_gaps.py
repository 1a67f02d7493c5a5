# expect: one_compile
# Right gaps from one jitted subtraction, but gaps first checks the timestamps with jax.numpy outside jit
# (jnp.isfinite(...).all()): those operations run eagerly and compile small programs of their own during the graded
# calls, so the four calls compile more than once. (jnp.asarray alone would not: converting a float64 NumPy array
# to float64 under enable_x64 compiles nothing, on JAX 0.10 and 0.12 alike.)
import jax
import jax.numpy as jnp


@jax.jit
def _gaps(t):
    return t[1:] - t[:-1]


def gaps(t):
    with jax.enable_x64(True):
        t = jnp.asarray(t, dtype=jnp.float64)
        if not bool(jnp.isfinite(t).all()):
            raise ValueError("timestamps must be finite")
        return _gaps(t)
