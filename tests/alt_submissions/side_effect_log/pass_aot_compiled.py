# expect: pass
# Right: compiled ahead of time for a (weakly typed) Python float; the io_callback is part of the compiled program.
import jax
from jax.experimental import io_callback

log = []


def _compute(x):
    io_callback(lambda v: log.append(float(v)), None, x)
    return x * 2


compute = jax.jit(_compute).lower(0.0).compile()
