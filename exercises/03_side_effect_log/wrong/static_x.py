# expect: one_compile
# Makes x static so the append "sees" a real number: it does, but only because every new value retraces and
# recompiles compute (one compile per call).
from functools import partial

import jax

log = []


@partial(jax.jit, static_argnums=0)
def compute(x):
    log.append(x)
    return x * 2
