# expect: reports_every_call
# Binds report to another name at import and hands that to the callback. The callback runs on every call, but it
# calls the function object captured at import: when report is replaced (the grader does, and so would a test
# or a logger set up later), the new report is never called.
import jax
import jax.numpy as jnp


def report(step, value):
    """Runs on the host with plain numbers: here it just shows the running sum."""
    print(f"step {step}: s = {value}")


_report = report


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(_report, t, s, ordered=True)
    return s
