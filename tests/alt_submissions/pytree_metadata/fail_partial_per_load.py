# expect: one_per_selection
# Keeps the selection inside a functools.partial that does the gather: partials compare by identity, so every
# load is a new key.
import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


def gather(x, columns):
    return x[:, columns]


@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array
    b: jax.Array
    pick: object


jax.tree_util.register_dataclass(Readout, data_fields=["w", "b"], meta_fields=["pick"])


def make_readout(w, b, columns):
    return Readout(jnp.asarray(w), jnp.asarray(b), functools.partial(gather, columns=tuple(columns.tolist())))


@jax.jit
def predict(readout, x):
    return readout.pick(x) @ readout.w + readout.b
