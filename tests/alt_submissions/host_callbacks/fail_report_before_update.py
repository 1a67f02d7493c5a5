# expect: reports_in_order
# Reports s before the update instead of after it.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        jax.debug.callback(report, t, s, ordered=True)
        s = s + xs[t] ** 2
    return s
