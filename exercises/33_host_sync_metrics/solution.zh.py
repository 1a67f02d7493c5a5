import jax
import jax.numpy as jnp
import numpy as np

BASE_LR = 0.5


def loss_and_accuracy(params, x, y):
    """softmax 回归：logit 相对标签的平均交叉熵，以及准确率。"""
    logits = x @ params["w"] + params["b"]
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))
    accuracy = jnp.mean(jnp.argmax(logits, axis=1) == y)
    return loss, accuracy


@jax.jit
def train_step(params, step, totals, x, y, n_steps):
    # 学习率调度在设备上计算，所用的步数计数器也存放在设备上：每一步都不必从 Python 发送任何数。
    lr = BASE_LR * 0.5 * (1 + jnp.cos(jnp.pi * step / n_steps))
    (loss, accuracy), grads = jax.value_and_grad(loss_and_accuracy, has_aux=True)(params, x, y)
    params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    # 指标也在设备上求和；Python 只在记录日志时才读取这些和。
    return params, step + 1, totals + jnp.stack([loss, accuracy])


def train(params, batches, log_every, log):
    zeros = np.zeros(2, np.float32)
    step = jax.device_put(np.int32(0))
    n_steps = jax.device_put(np.float32(len(batches)))
    totals = jax.device_put(zeros)
    for i, batch in enumerate(batches, 1):
        x, y = jax.device_put(batch)  # 一次显式的异步拷贝：循环不用等它完成
        params, step, totals = train_step(params, step, totals, x, y, n_steps)
        if i % log_every == 0:
            loss_sum, accuracy_sum = jax.device_get(totals)  # 每 log_every 步一次主机同步
            log(i, loss_sum / log_every, accuracy_sum / log_every)
            totals = jax.device_put(zeros)
    return params
