# expect: pass
# Sends the next batch to the device before running the current step (one batch ahead), and keeps running
# totals whose previous value is subtracted on the host.
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
def train_step(params, totals, x, y, lr):
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(params, x, y)
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    return params, totals + jnp.stack([loss, accuracy])


def lr_at(step, total):
    return jax.device_put(np.float32(BASE_LR * 0.5 * (1 + math.cos(math.pi * step / total))))


def train(params, batches, log_every, log):
    it = iter(batches)
    total = len(batches)
    totals = jax.device_put(np.zeros(2, np.float32))
    seen = np.zeros(2)
    nxt = jax.device_put(next(it))
    for step in range(total):
        x, y = nxt
        if step + 1 < total:
            nxt = jax.device_put(next(it))
        params, totals = train_step(params, totals, x, y, lr_at(step, total))
        if (step + 1) % log_every == 0:
            now = np.asarray(jax.device_get(totals), dtype=np.float64)
            loss, accuracy = (now - seen) / log_every
            seen = now
            log(step + 1, loss, accuracy)
    return params
