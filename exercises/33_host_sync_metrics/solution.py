import jax
import jax.numpy as jnp
import numpy as np

BASE_LR = 0.5


def loss_and_accuracy(params, x, y):
    """Softmax regression: mean cross-entropy of the logits against the labels, and the accuracy."""
    logits = x @ params["w"] + params["b"]
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))
    accuracy = jnp.mean(jnp.argmax(logits, axis=1) == y)
    return loss, accuracy


@jax.jit
def train_step(params, step, totals, x, y, n_steps):
    # The schedule is computed on the device, from a step counter that lives there too: no number has to be
    # sent from Python on each step.
    lr = BASE_LR * 0.5 * (1 + jnp.cos(jnp.pi * step / n_steps))
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(params, x, y)
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    # The metrics are summed on the device too; Python reads the sums only when it logs.
    return params, step + 1, totals + jnp.stack([loss, accuracy])


def train(params, batches, log_every, log):
    zeros = np.zeros(2, np.float32)
    step = jax.device_put(np.int32(0))
    n_steps = jax.device_put(np.float32(len(batches)))
    totals = jax.device_put(zeros)
    for i, batch in enumerate(batches, 1):
        x, y = jax.device_put(batch)  # an explicit, asynchronous copy: the loop does not wait for it
        params, step, totals = train_step(params, step, totals, x, y, n_steps)
        if i % log_every == 0:
            loss_sum, accuracy_sum = jax.device_get(totals)  # one sync every log_every steps
            log(i, loss_sum / log_every, accuracy_sum / log_every)
            totals = jax.device_put(zeros)
    return params
