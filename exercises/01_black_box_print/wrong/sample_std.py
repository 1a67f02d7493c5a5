# expect: values
# Prints correctly, but divides by the sample standard deviation (ddof=1) instead of jnp.std's default.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    jax.debug.print("mean={m}", m=mean)
    return (x - mean) / jnp.std(x, ddof=1)
