# expect: pass
# lr traced and capped with jnp.minimum; a jax.debug.print of the step size is allowed.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y, lr):
    size = jnp.minimum(lr, 0.5)
    jax.debug.print("step size {s}", s=size)
    return w - size * jax.grad(loss)(w, x, y)
