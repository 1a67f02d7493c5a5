# expect: pass
# The gradient written by hand, 2/n · xᵀ(xw - y), inside one module-level jitted step; jax.debug.print left in.
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y, lr):
    residual = x @ w - y
    jax.debug.print("residual norm {r}", r=jnp.linalg.norm(residual))
    return w - lr * (2.0 / y.shape[0]) * (x.T @ residual)


def train(w, batches, lr):
    for x, y in batches:
        w = step(w, x, y, lr)
    return w
