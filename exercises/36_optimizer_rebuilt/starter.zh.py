import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# 优化器是静态参数：jit 不能把它的函数当作数组输入。
@functools.partial(jax.jit, static_argnames="optimizer")
def train_step(params, opt_state, x, y, optimizer):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lrs, report):
    opt_state = None
    for epoch, lr in enumerate(lrs, start=1):
        # 本 epoch 的学习率：用它新建一个 Adam（矩保存在 opt_state 里，会延续下去）。
        optimizer = optax.adam(lr)
        if opt_state is None:
            opt_state = optimizer.init(params)
        for x, y in batches:
            params, opt_state, loss = train_step(params, opt_state, x, y, optimizer=optimizer)
        report(epoch, params)
    return params


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run optimizer_rebuilt`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
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
