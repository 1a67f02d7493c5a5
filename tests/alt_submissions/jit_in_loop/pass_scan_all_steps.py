# expect: pass
# All 20 steps in one jitted call: the batches are stacked on the host and lax.scan runs the loop.
import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def run_all(w, xs, ys, lr):
    def step(w, batch):
        x, y = batch
        return w - lr * jax.grad(loss)(w, x, y), None

    w, _ = jax.lax.scan(step, w, (xs, ys))
    return w


def train(w, batches, lr):
    xs = np.stack([x for x, _ in batches])
    ys = np.stack([y for _, y in batches])
    return run_all(w, xs, ys, lr)
