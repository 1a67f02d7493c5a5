# expect: values
# Makes the selection a sorted tuple, so that "the same features" hash alike: but the order was meaningful,
# and every feature now meets another row of w.
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array
    b: jax.Array
    columns: tuple


jax.tree_util.register_dataclass(Readout, data_fields=["w", "b"], meta_fields=["columns"])


def make_readout(w, b, columns):
    return Readout(jnp.asarray(w), jnp.asarray(b), tuple(sorted(int(c) for c in columns)))


@jax.jit
def predict(readout, x):
    return x[:, np.array(readout.columns)] @ readout.w + readout.b
