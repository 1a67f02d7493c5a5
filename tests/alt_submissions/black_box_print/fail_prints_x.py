# expect: prints_each_call
# Prints at run time, but the whole batch, not its mean.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    jax.debug.print("batch: {}", x)
    return (x - jnp.mean(x)) / jnp.std(x)
