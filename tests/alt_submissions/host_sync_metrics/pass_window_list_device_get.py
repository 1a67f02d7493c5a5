# expect: pass
# Keeps the window's per-step metrics as device arrays in a list and reads the whole list with one device_get.
import math

import jax
import jax.numpy as jnp
import numpy as np

BASE_LR = 0.5


def loss_and_accuracy(params, x, y):
    logits = x @ params["w"] + params["b"]
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))
    accuracy = jnp.mean(jnp.argmax(logits, axis=1) == y)
    return loss, accuracy



@jax.jit
def sgd_step(params, step, x, y, n_steps):
    lr = BASE_LR * 0.5 * (1 + jnp.cos(jnp.pi * step / n_steps))
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), step + 1, loss, accuracy


def train(params, batches, log_every, log):
    step = jax.device_put(np.float32(0))
    n_steps = jax.device_put(np.float32(len(batches)))
    window = []
    for i, batch in enumerate(batches, 1):
        params, step, loss, accuracy = sgd_step(params, step, *jax.device_put(batch), n_steps)
        window.append((loss, accuracy))
        if i % log_every == 0:
            values = np.array(jax.device_get(window), dtype=np.float64)
            log(i, values[:, 0].mean(), values[:, 1].mean())
            window = []
    return params
