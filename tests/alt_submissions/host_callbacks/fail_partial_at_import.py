# expect: reports_every_call
# Binds report into a partial at import: the callback keeps calling the original object.
import functools
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")

log_step = functools.partial(jax.debug.callback, report, ordered=True)


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        log_step(t, s)
    return s
