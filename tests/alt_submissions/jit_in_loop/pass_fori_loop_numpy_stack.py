# expect: pass
# Stacked with NumPy on the host (a jnp.stack outside jit would compile), then one jitted fori_loop over the steps.
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def run(w, xs, ys, lr):
    def body(i, w):
        return w - lr * jax.grad(loss)(w, xs[i], ys[i])

    return jax.lax.fori_loop(0, xs.shape[0], body, w)


def train(w, batches, lr):
    xs = np.stack([x for x, _ in batches])
    ys = np.stack([y for _, y in batches])
    return run(w, xs, ys, lr)
