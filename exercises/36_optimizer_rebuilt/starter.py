import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# The optimizer is a static argument: jit cannot take its functions as array inputs.
@functools.partial(jax.jit, static_argnames="optimizer")
def train_step(params, opt_state, x, y, optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lrs, report):
    opt_state = None
    for epoch, lr in enumerate(lrs, start=1):
        # This epoch's learning rate: a fresh Adam with it (the moments carry over in opt_state).
        optimizer = optax.adam(lr)
        if opt_state is None:
            opt_state = optimizer.init(params)
        for x, y in batches:
            params, opt_state, loss = train_step(params, opt_state, x, y, optimizer=optimizer)
        report(epoch, params)
    return params


# Not graded: a scratch run (F6 in the app, `jittrainer run optimizer_rebuilt` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(0, 0.7, (4, 16)).astype(np.float32), "b1": np.zeros(16, np.float32),
              "w2": rng.normal(0, 0.5, 16).astype(np.float32), "b2": np.float32(0.0)}
    batches = []
    for _ in range(4):
        x = rng.normal(size=(32, 4)).astype(np.float32)
        batches.append((x, np.sin(x.sum(axis=1)).astype(np.float32)))
    lrs = [0.03, 0.02, 0.012, 0.008, 0.005]

    def report(epoch, params):
        x, y = batches[0]
        print(f"epoch {epoch}: loss {float(loss_fn(params, x, y)):.4f}")

    train(params, batches, lrs, report)
