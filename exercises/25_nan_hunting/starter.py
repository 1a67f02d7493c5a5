import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # TODO: some rows come out NaN. Find the operation that makes the first NaN
    # (jax.debug_nans, or checkify), fix it, and look again: there may be more than one.
    p = jnp.exp(logits) / jnp.sum(jnp.exp(logits), axis=-1, keepdims=True)
    return -jnp.sum(p * jnp.log(p), axis=-1)


# Not graded: a scratch run (F6 in the app, `jittrainer run nan_hunting` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    logits = jnp.array([[0.0] * 8, [1000.0] + [0.0] * 7, [-1000.0] * 8])
    print(entropy(logits))
