# expect: pass
# jnp.where picks the cap when lr is above it; explicit gradient formula.
import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y, lr):
    step = jnp.where(lr > 0.5, 0.5, lr)
    grad = 2.0 * x.T @ (x @ w - y) / x.shape[0]
    return w - step * grad
