# expect: pass
# Right: compiled ahead of time at import; the callback is a lambda that looks report up by name when it runs,
# so the grader's replacement is the one called.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


def _train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(lambda step, value: report(step, value), t, s, ordered=True)
    return s


train = jax.jit(_train).lower(jax.ShapeDtypeStruct((5,), jnp.float32)).compile()
