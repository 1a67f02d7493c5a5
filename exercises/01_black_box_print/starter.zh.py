import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    # TODO: 这个 print 只在 JAX 追踪 normalize 时运行，所以它只打印一次，而且打印的是追踪器。
    print("mean of this batch:", mean)
    return (x - mean) / jnp.std(x)
