# expect: no_implicit_transfers
# Sends the batches with device_put and reads once per log, but still works out the learning rate with jax.numpy
# on a Python step number: jnp.cos(...) copies that number to the device on every step.
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


def host_lr(step, total):
    return np.float32(BASE_LR * 0.5 * (1 + math.cos(math.pi * step / total)))


def train(params, batches, log_every, log):
    zeros = np.zeros(2, np.float32)
    totals = jax.device_put(zeros)
    for step, batch in enumerate(batches):
        lr = BASE_LR * 0.5 * (1 + jnp.cos(jnp.pi * step / len(batches)))
        x, y = jax.device_put(batch)
        params, totals = train_step(params, totals, x, y, lr)
        if (step + 1) % log_every == 0:
            loss_sum, accuracy_sum = jax.device_get(totals)
            log(step + 1, loss_sum / log_every, accuracy_sum / log_every)
            totals = jax.device_put(zeros)
    return params
