# expect: prints_each_call
# Wrong: Python print shows the mean (a tracer, once, while tracing); jax.debug.print shows x on every call.
# Checks the message tells call 1's tracer apart from the later calls that print no mean.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    print("mean of this batch:", mean)
    jax.debug.print("x: {}", x)
    return (x - mean) / jnp.std(x)
