# expect: prints_each_call
# Looks right, but the f-string is formatted while tracing: every call prints the same tracer text.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    jax.debug.print(f"mean of this batch: {mean}")
    return (x - mean) / jnp.std(x)
