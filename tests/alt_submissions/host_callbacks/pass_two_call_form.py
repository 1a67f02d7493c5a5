# expect: pass
# Right: the two-call form of jax.debug.callback (options first, then the function and its arguments).
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


def train(xs):
    s = jnp.zeros((), jnp.float32)
    for t, x in enumerate(xs):
        s += x * x
        jax.debug.callback(ordered=True)(report, t, s)
    return s
