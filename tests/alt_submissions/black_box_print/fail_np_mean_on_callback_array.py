# expect: one_compile
# Wrong (by the contract): the callback prints np.mean(v) of the jax.Array it receives; NumPy dispatches to an
# eager jax.numpy mean, which compiles a second time. Checks one_compile names that (np.asarray(v) first).
import numpy as np
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    # compute the mean on the host inside the callback, from the real x of this call
    jax.debug.callback(lambda v: print("mean:", np.mean(v)), x)
    return (x - jnp.mean(x)) / jnp.std(x)
