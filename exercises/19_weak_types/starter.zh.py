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
