# expect: pass
# io_callback with no result, ordered.
from jax.experimental import io_callback
import jax


def report(step, value):
    print(f"step {step}: s = {value}")


@jax.jit
def train(xs):
    s = 0.0
    for t in range(len(xs)):
        s = s + xs[t] ** 2
        io_callback(report, None, t, s, ordered=True)
    return s
