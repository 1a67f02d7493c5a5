# expect: values
# Traced lr, one compile, but the loss sums the squared errors instead of averaging them.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y, lr):
    grads = jax.grad(lambda v: jnp.sum((x @ v - y) ** 2))(w)
    return w - jnp.minimum(lr, 0.5) * grads
