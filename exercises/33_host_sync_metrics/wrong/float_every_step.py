# expect: host_syncs
# Every transfer is explicit now, but the loop still keeps a Python history of the loss and the accuracy: two
# float() reads, two waits for the device, on every step.
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
def sgd_step(params, x, y, lr):
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss, accuracy


def train(params, batches, log_every, log):
    losses, accuracies = [], []
    for step, batch in enumerate(batches):
        lr = BASE_LR * 0.5 * (1 + math.cos(math.pi * step / len(batches)))
        x, y = jax.device_put(batch)
        params, loss, accuracy = sgd_step(params, x, y, jax.device_put(np.float32(lr)))
        losses.append(float(loss))
        accuracies.append(float(accuracy))
        if (step + 1) % log_every == 0:
            log(step + 1, np.mean(losses[-log_every:]), np.mean(accuracies[-log_every:]))
    return params
