# expect: runs
# Issue case (starter's verdict had code in the observation): hands report Python numbers by calling .item() on
# traced values inside jit. JAX's error is the observation; the callback to write is only in the advice.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        report(t, s.item())
    return s
