# expect: pass
# lax.scan carrying s; the step index travels as part of xs.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    def body(s, tx):
        t, x = tx
        s = s + x * x
        jax.debug.callback(report, t, s, ordered=True)
        return s, None

    s, _ = jax.lax.scan(body, jnp.float32(0), (jnp.arange(xs.shape[0]), xs))
    return s
