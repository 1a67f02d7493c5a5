# expect: reports_every_call
# Issue case (graded values over the whole range): a logger that skips a report when the sum did not change.
# With every element well away from 0 it passed; the graded inputs now include a 0, where s stays the same.
import jax
import jax.numpy as jnp

_last = [None]


def report(step, value):
    print(f"step {step}: s = {value}")


def _emit(t, s):
    if _last[0] is None or float(s) != _last[0]:
        report(t, s)
    _last[0] = float(s)


@jax.jit
def train(xs):
    s = jnp.float32(0.0)
    for t in range(xs.shape[0]):
        s = s + xs[t] ** 2
        jax.debug.callback(_emit, t, s, ordered=True)
    return s
