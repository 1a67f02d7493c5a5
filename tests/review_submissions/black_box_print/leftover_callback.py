# expect: pass
# review: review.left.callback
# Right, with a leftover: the mean is printed with jax.debug.print, but a silent jax.debug.callback from an earlier
# debugging session is still in the program, a trip to the host on every call for nothing.
import jax
import jax.numpy as jnp

seen = []


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    jax.debug.print("mean of this batch: {m}", m=mean)
    jax.debug.callback(lambda v: seen.append(v.shape), x)
    return (x - mean) / jnp.std(x)
