# expect: reports_every_call
# Prints the right numbers on every call with jax.debug.print, but never calls report: whoever replaces report
# (a logger, a test, the grader) sees nothing.
import jax
import jax.numpy as jnp


def report(step, value):
    """Runs on the host with plain numbers: here it just shows the running sum."""
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.print("step {t}: s = {s}", t=t, s=s)
    return s
