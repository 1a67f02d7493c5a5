# expect: one_compile
# One jitted scan over all steps, but the batches are stacked with jnp.stack outside jit: an eager jax.numpy call,
# which compiles a program of its own, so the two runs compile more than once.
import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def run(w, xs, ys, lr):
    def body(w, xy):
        x, y = xy
        return w - lr * jax.grad(loss)(w, x, y), None

    return jax.lax.scan(body, w, (xs, ys))[0]


def train(w, batches, lr):
    xs = jnp.stack([x for x, _ in batches])
    ys = jnp.stack([y for _, y in batches])
    return run(w, xs, ys, lr)
