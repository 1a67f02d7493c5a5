import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# 整个程序只有一个优化器。inject_hyperparams 把学习率作为数组保存在优化器状态里：
# 新的学习率是流入同一个程序的新值，而不是一个新的优化器对象。
optimizer = optax.inject_hyperparams(optax.adam)(learning_rate=0.01)


# 没有任何静态参数：每个 epoch 之间会变的东西都是数组参数。
@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lrs, report):
    opt_state = optimizer.init(params)
    for epoch, lr in enumerate(lrs, start=1):
        # 用 float32，和 init 创建的数组一样：每个 epoch 类型相同，缓存键也就相同。
        opt_state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, opt_state, loss = train_step(params, opt_state, x, y)
        report(epoch, params)
    return params
