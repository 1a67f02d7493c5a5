# expect: pass
# A class registered with register_pytree_node_class: the arrays are children, the selection is aux data, a
# tuple of ints.
import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_pytree_node_class
class Readout:
    def __init__(self, w, b, columns):
        self.w, self.b, self.columns = w, b, columns

    def tree_flatten(self):
        return (self.w, self.b), self.columns

    @classmethod
    def tree_unflatten(cls, columns, children):
        return cls(*children, columns)


def make_readout(w, b, columns):
    return Readout(jnp.asarray(w), jnp.asarray(b), tuple(columns.tolist()))


@jax.jit
def predict(readout, x):
    return jnp.take(x, jnp.array(readout.columns), axis=1) @ readout.w + readout.b
