import jax
import jax.numpy as jnp


def report(step, value):
    # 在主机上用普通的数运行：这里只是显示累加和。
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        # 调试回调是编译好的程序里的一个操作：每次调用时，运行时把具体的 t 和 s 交回给 Python，
        # 并运行 report(t, s)。ordered=True 让这些报告按程序中的顺序出现。
        jax.debug.callback(report, t, s, ordered=True)
    return s
