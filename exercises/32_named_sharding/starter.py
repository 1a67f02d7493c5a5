import jax
import jax.numpy as jnp


@jax.jit
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    # TODO: nothing says where x or the results should live, so jit puts x on one device and runs the whole
    # program there; the other devices sit idle, and both results come back on that one device.
    return _normalize(x)


# Not graded: a scratch run (F6 in the app, `jittrainer run named_sharding` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = np.arange(24, dtype=np.float32).reshape(8, 3) + 1
    y, norms = normalize_rows(x)
    print(y.sharding, norms.sharding)
