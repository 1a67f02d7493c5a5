# expect: pass
# Stacks a window of batches on the host, sends it once, and runs the window as one jitted lax.scan; the last,
# partial window is scanned the same way.
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
def run_window(params, xs, ys, lrs):
    def body(p, batch):
        x, y, lr = batch
        (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(p, x, y)
        return jax.tree.map(lambda a, g: a - lr * g, p, grads), jnp.stack([loss, accuracy])

    params, metrics = jax.lax.scan(body, params, (xs, ys, lrs))
    return params, metrics.mean(axis=0)


def train(params, batches, log_every, log):
    total = len(batches)
    window = []
    for step, batch in enumerate(batches):
        window.append(batch)
        if len(window) == log_every or step + 1 == total:
            first = step + 1 - len(window)
            lrs = np.array([BASE_LR * 0.5 * (1 + math.cos(math.pi * t / total))
                            for t in range(first, step + 1)], np.float32)
            xs = np.stack([b[0] for b in window])
            ys = np.stack([b[1] for b in window])
            params, means = run_window(params, *jax.device_put((xs, ys, lrs)))
            if len(window) == log_every:
                loss, accuracy = jax.device_get(means)
                log(step + 1, loss, accuracy)
            window = []
    return params
