# expect: one_compile
# jnp.asarray with an explicit dtype: a strong float32 scalar for every source. But the conversion of a JAX
# scalar runs eagerly outside jit and compiles a program of its own, and every compile counts (issue 20: one
# counting rule for the course), so the runs compile more than once.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, jnp.asarray(lr, dtype=jnp.float32))
    return w
