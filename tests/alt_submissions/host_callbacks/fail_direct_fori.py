# expect: reports_every_call
# report called directly in a fori_loop body: the body is traced once, report runs once, with tracers.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    def body(t, s):
        s = s + xs[t] ** 2
        report(t, s)
        return s

    return jax.lax.fori_loop(0, xs.shape[0], body, jnp.float32(0))
