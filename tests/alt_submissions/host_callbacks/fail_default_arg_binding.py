# expect: reports_every_call
# Wrong: binds report as a default argument at import; the grader's replacement is never called.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs, _report=report):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(_report, t, s, ordered=True)
    return s
