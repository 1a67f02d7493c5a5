# expect: one_compile
# Casts lr to float32 inside the jitted step: the program is the same, but jit picks the cache entry from the
# input types before it runs a line of the function.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, g, lr):
    lr = jnp.asarray(lr, dtype=jnp.float32)
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, lr)
    return w
