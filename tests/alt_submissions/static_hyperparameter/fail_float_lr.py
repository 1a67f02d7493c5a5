# expect: runs
# float(lr) to "make sure it is a number": a traced lr has no value while tracing.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y, lr):
    step = min(float(lr), 0.5)
    grads = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - step * grads
