import jax

log = []  # 每次调用 compute 都必须把它的输入追加到这里


@jax.jit
def compute(x):
    # TODO: 这个 append 只在 JAX 追踪 compute 时执行：
    # 只执行一次，而且存进去的是追踪器，不是值。
    log.append(x)
    return x * 2
