# expect: one_compile
# jnp.float32(lr) in the driver: every learning rate becomes a strongly typed float32 JAX scalar. The eager
# conversions (and jnp.asarray(w)) compile programs of their own outside jit, and every compile counts (issue 20:
# one counting rule for the course), so the runs compile more than once.
import jax
import jax.numpy as jnp


def update(w, g, lr):
    return w - lr * g


step = jax.jit(update)


def run(w, grads, lrs):
    w = jnp.asarray(w)
    for g, lr in zip(grads, lrs):
        w = step(w, g, jnp.float32(lr))
    return w
