import jax

log = []  # compute 的每次调用都会把它的输入加到这里


@jax.jit
def compute(x):
    # jax.debug.callback 是编译好的程序的一部分：每次调用时，它都把 x 的真实值交回给 Python，
    # 由 log.append 接收。
    jax.debug.callback(log.append, x)
    return x * 2
