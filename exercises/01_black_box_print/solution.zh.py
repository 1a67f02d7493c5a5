import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    # jax.debug.print 是编译好的程序里的一个操作：每次调用都会运行，打印的是真实的值。
    jax.debug.print("mean of this batch: {m}", m=mean)
    return (x - mean) / jnp.std(x)
