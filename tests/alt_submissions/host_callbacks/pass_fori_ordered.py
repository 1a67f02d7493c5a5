# expect: pass
# fori_loop with an ordered debug callback in the body.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    def body(t, s):
        s = s + xs[t] ** 2
        jax.debug.callback(report, t, s, ordered=True)
        return s

    return jax.lax.fori_loop(0, xs.shape[0], body, jnp.zeros((), xs.dtype))
