# expect: logs
# Never syncs during training: keeps every step's metrics on the device and reads them all after the loop, then
# logs every window at once. Nothing is seen while the model trains.
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
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), jnp.stack([loss, accuracy])


def train(params, batches, log_every, log):
    history = []
    for step, batch in enumerate(batches):
        lr = np.float32(BASE_LR * 0.5 * (1 + math.cos(math.pi * step / len(batches))))
        x, y = jax.device_put(batch)
        params, metrics = sgd_step(params, x, y, jax.device_put(lr))
        history.append(metrics)
    history = np.stack(jax.device_get(history))
    for end in range(log_every, len(history) + 1, log_every):
        loss, accuracy = history[end - log_every:end].mean(axis=0)
        log(end, loss, accuracy)
    return params
