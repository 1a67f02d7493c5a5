# expect: pass
# A debug callback in a Python loop, without ordered=True (each s depends on the previous one).
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(report, t, s)
    return s
