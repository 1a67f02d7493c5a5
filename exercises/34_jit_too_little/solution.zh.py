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


@jax.jit
def train_step(params, opt_state, x, y):
    # 整个训练步是一个程序：前向计算、梯度、Adam 更新以及应用更新一起被追踪，只编译一次，
    # 之后的每一步都只是一次派发。
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss
