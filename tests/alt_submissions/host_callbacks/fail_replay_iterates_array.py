# expect: reports_every_call
# Issue case: collects the sums in the loop and hands them to one callback after it, which replays them on the
# host. Iterating the jax.Array it receives compiles jit(unstack) too; the headline must be the replay, not that.
import jax
import jax.numpy as jnp


def report(step, value):
    print(f"step {step}: s = {value}")


def _replay(sums):
    for t, s in enumerate(sums):
        report(t, s)


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    sums = []
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        sums.append(s)
    jax.debug.callback(_replay, jnp.stack(sums), ordered=True)
    return s
