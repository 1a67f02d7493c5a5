# expect: pass
# A string is hashable and compares by value: "2,3" carries the windows, parsed back while tracing.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="spec")
def _pool(x, spec):
    sizes = [int(s) for s in spec.split(",")]
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in sizes])


def pyramid_pool(x, windows):
    return _pool(x, spec=",".join(str(w) for w in windows))
