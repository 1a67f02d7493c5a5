# expect: one_compile
# "Make everything a JAX array": jnp.asarray without a dtype keeps a Python float weakly typed, and a NumPy or
# jnp.float32 scalar strong, so there are still two input types.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, jnp.asarray(lr))
    return w
