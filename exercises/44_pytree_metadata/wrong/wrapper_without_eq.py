# expect: one_per_selection
# Wraps the array in a small hashable class: no more ValueError, but the class compares by identity, so every
# readout loaded afresh is a new key and predict traces on every call.
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


class Columns:
    def __init__(self, array):
        self.array = array


@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array
    b: jax.Array
    columns: Columns


jax.tree_util.register_dataclass(Readout, data_fields=["w", "b"], meta_fields=["columns"])


def make_readout(w, b, columns):
    return Readout(jnp.asarray(w), jnp.asarray(b), Columns(columns))


@jax.jit
def predict(readout, x):
    return x[:, readout.columns.array] @ readout.w + readout.b
