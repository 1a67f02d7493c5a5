# expect: follows_mutation
# expect[jax>=0.12]: one_compile
# Keeps self static but hashes (and compares) it by the values of its fields, so that "new values mean a new
# cache entry". On JAX 0.10 jit still runs the program it compiled for this object: the results stay stale. On
# 0.12 the new hash misses the cache: fresh results, but every assignment compiles again.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def _key(self):
        return np.asarray(self.w).tobytes(), float(self.b)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, Layer) and self._key() == other._key()

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
