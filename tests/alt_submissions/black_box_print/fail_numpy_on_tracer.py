# expect: prints_each_call
# np.mean on a tracer returns a tracer (NumPy defers to its .mean), so the Python print shows JitTracer once.
import jax.numpy as jnp
import numpy as np


def normalize(x):
    print("mean:", np.mean(x))
    return (x - jnp.mean(x)) / jnp.std(x)
