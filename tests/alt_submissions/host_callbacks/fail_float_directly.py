# expect: runs
# Tries to give report plain numbers directly inside jit: float() of a tracer raises.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        report(t, float(s))
    return s
