# expect: runs
# Tries to turn the mean into a Python float inside jit: a tracer has no value yet.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    print(f"mean of this batch: {float(mean):.4f}")
    return (x - mean) / jnp.std(x)
