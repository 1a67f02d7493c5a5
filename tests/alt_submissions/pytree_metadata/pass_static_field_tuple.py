# expect: pass
# Marks the static field with dataclasses.field metadata and stores a tuple; predict is left for the grader
# to jit.
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array
    b: jax.Array
    columns: tuple = dataclasses.field(metadata=dict(static=True))


def make_readout(w, b, columns):
    return Readout(w=jnp.asarray(w), b=jnp.asarray(b), columns=tuple(map(int, columns)))


def predict(readout, x):
    picked = jnp.stack([x[:, c] for c in readout.columns], axis=1)
    return picked @ readout.w + readout.b
