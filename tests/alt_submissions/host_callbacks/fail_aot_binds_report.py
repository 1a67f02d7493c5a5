# expect: reports_every_call
# Wrong: compiled ahead of time at import with report handed to the callback directly: the executable keeps the
# report of import time, so the grader's replacement (made later, by name) is never called.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


def _train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(report, t, s, ordered=True)
    return s


train = jax.jit(_train).lower(jax.ShapeDtypeStruct((5,), jnp.float32)).compile()
