import jax


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    # 学习率来自不同的地方：Python float、NumPy 标量、JAX 标量。
    # TODO：它们装的都是一个数，可 jit 把它们看成同一种输入类型吗？
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, lr)
    return w


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run weak_types`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    w = np.ones(8, np.float32)
    grads = [np.ones(8, np.float32)] * 12
    lrs = [0.01, np.float32(0.01), jnp.asarray(0.01), jnp.float32(0.01)] * 3
    print(run(w, grads, lrs))
