# Not decorated: the grader wraps train in jax.jit.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] * xs[t]
        jax.debug.callback(report, t, s, ordered=True)
    return s
