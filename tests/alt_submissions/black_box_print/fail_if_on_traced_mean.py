# expect: runs
# Wrong: a Python if on a traced value raises TracerBoolConversionError; the advice must be about branching,
# not about float()/.item().
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    if mean > 0:
        jax.debug.print("positive mean {}", mean)
    return (x - mean) / jnp.std(x)
