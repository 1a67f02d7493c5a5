import jax
import jax.numpy as jnp


@jax.jit
def pick_good(x):
    # TODO: x[x > 0] has as many elements as x has positive values: jit cannot know that
    # number while it traces, so it cannot give the result a shape.
    good = x[x > 0]
    count = good.shape[0]
    kept = jnp.pad(good, (0, x.shape[0] - count))
    mean = jnp.mean(good) if count else 0.0
    return kept, count, mean
