# expect: pass
# Calls train once at import as a quick demo; the grader must still see its own report afterwards.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(report, t, s, ordered=True)
    return s


print("demo:", train(jnp.arange(5.0, dtype=jnp.float32)))
