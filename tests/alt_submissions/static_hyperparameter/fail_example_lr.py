# expect: values
# Traced and compiled once, but the step size is the statement's example, 0.1, whatever lr is.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y, lr):
    grads = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * grads
