# expect: reports_in_order
# Computes all running sums at once and reports them with unordered debug callbacks. Nothing ties the callbacks
# to each other, so the compiler is free to run them in any order (it does): pass ordered=True.
import jax
import jax.numpy as jnp


def report(step, value):
    """Runs on the host with plain numbers: here it just shows the running sum."""
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    sums = jnp.cumsum(xs**2)
    for t in range(xs.shape[0]):
        jax.debug.callback(report, t, sums[t])
    return sums[-1]
