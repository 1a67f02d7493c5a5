# A lambda that closes over an import-time alias of report: still the old object.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")

_show = report


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(lambda a, b: _show(a, b), t, s, ordered=True)
    return s
