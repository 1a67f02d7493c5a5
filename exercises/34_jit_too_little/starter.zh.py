import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-2
optimizer = optax.adam(LEARNING_RATE)


def loss_fn(params, x, y):
    """一个小 MLP 的均方误差：一个 tanh 隐藏层，一个输出。"""
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# 损失是最贵的部分，所以只编译它。
fast_loss = jax.jit(loss_fn)


def train_step(params, opt_state, x, y):
    # TODO：只有损失被 jit 了。下面梯度的收尾工作和整个 Adam 更新都以 eager 模式执行，
    # 一次一个运算，每个运算都是一个独立的小程序，单独派发。
    loss, grads = jax.value_and_grad(fast_loss)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run jit_too_little`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    params = {"w1": jnp.asarray(rng.normal(0, 0.5, (4, 16)), jnp.float32), "b1": jnp.zeros(16),
              "w2": jnp.asarray(rng.normal(0, 0.25, (16, 1)), jnp.float32), "b2": jnp.zeros(1)}
    opt_state = optimizer.init(params)
    for step in range(5):
        x = jnp.asarray(rng.normal(size=(32, 4)), jnp.float32)
        y = jnp.sin(x.sum(axis=1, keepdims=True))
        params, opt_state, loss = train_step(params, opt_state, x, y)
        print(f"step {step}: loss {float(loss):.4f}")
