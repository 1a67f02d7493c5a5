# expect: one_compile
# Issue case: rounds the running sum for display inside the callback. The callback receives jax.Arrays, so
# Python's round() runs jnp.round eagerly and compiles jit(round): the message must say it happened in the callback.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(lambda t, s: report(int(t), round(s, 6)), t, s, ordered=True)
    return s
