# expect: runs
# Wrong: std.item() inside jit raises ConcretizationTypeError; the advice must not claim the culprit is the mean.
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    std = jnp.std(x)
    print("std", std.item())
    mean = jnp.mean(x)
    jax.debug.print("mean {}", mean)
    return (x - mean) / std
