import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def enable_compilation_cache(cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    # JAX 只写入编译耗时至少这么久的程序（默认 1 秒）：步骤的编译不到一秒，所以按默认值它永远不会被写入。
    # 设为 0 则写入每个程序。
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)


# 学习率作为数组存放在优化器状态里：每次试验的程序都相同，它在磁盘上的缓存键也相同。
# （optax.sgd(lr) 会把 lr 作为常量固化进程序：每个学习率都是一个新程序。）
optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.01, momentum=0.9)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lr, cache_dir):
    enable_compilation_cache(cache_dir)  # 在本次试验第一次编译之前
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = np.float32(lr)
    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
