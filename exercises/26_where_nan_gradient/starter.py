import jax
import jax.numpy as jnp


@jax.jit
def lengths(v):
    sq = jnp.sum(v * v, axis=-1)
    # TODO: the values are right, zero vectors included, but jax.grad gives NaN for the zero vectors:
    # where picks 0.0 there, yet sqrt(sq) is still computed at sq = 0, and its derivative there is inf.
    return jnp.where(sq > 0, jnp.sqrt(sq), 0.0)


# Not graded: a scratch run (F6 in the app, `jittrainer run where_nan_gradient` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    v = jnp.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]])
    print(lengths(v))
    print(jax.grad(lambda v: lengths(v).sum())(v))
