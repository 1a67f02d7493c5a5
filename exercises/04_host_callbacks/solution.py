import jax
import jax.numpy as jnp


def report(step, value):
    # Runs on the host with plain numbers: here it just shows the running sum.
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        # A debug callback is an operation in the compiled program: on every call the runtime hands the concrete
        # t and s back to Python and runs report(t, s). ordered=True keeps the reports in program order.
        jax.debug.callback(report, t, s, ordered=True)
    return s
