import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    # TODO: this print runs only while JAX traces normalize, so it shows a tracer, once.
    print("mean of this batch:", mean)
    return (x - mean) / jnp.std(x)
