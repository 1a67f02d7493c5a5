import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def enable_compilation_cache(cache_dir):
    # 编译好的程序写入磁盘：扫描的下一次试验（一个新进程）直接加载它们，而不是重新编译。
    jax.config.update("jax_compilation_cache_dir", cache_dir)


def train(params, batches, lr, cache_dir):
    """扫描中的一次试验：以本次试验的学习率做带动量的 SGD，每个批次一步。"""
    enable_compilation_cache(cache_dir)
    optimizer = optax.sgd(lr, momentum=0.9)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run persistent_cache`）
# 会运行这段代码，展示你的函数做了什么；评分时只导入文件，不运行它。
# 它在本进程中运行一次试验；扫描则在新进程中运行每次试验，共用同一个目录。
if __name__ == "__main__":
    import os
    import tempfile

    import numpy as np

    jax.config.update("jax_explain_cache_misses", True)  # JAX 记录缓存做了什么（用 python 运行时输出到 stderr）
    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(0, 0.7, (4, 16)).astype(np.float32), "b1": np.zeros(16, np.float32),
              "w2": rng.normal(0, 0.5, 16).astype(np.float32), "b2": np.float32(0.0)}
    batches = []
    for _ in range(8):
        x = rng.normal(size=(32, 4)).astype(np.float32)
        batches.append((x, np.sin(x.sum(axis=1)).astype(np.float32)))
    cache_dir = tempfile.mkdtemp(prefix="sweep-cache-")
    params = train(params, batches, 0.05, cache_dir)
    x, y = batches[0]
    print(f"loss after the trial: {float(loss_fn(params, x, y)):.4f}")
    print(f"programs in the cache folder: {len(os.listdir(cache_dir))}")
