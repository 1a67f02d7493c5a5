# expect: hashable
# A list of ints as aux data: compares by value, traces once per selection, but is neither hashable nor
# immutable.
import jax
import jax.numpy as jnp


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
    return Readout(jnp.asarray(w), jnp.asarray(b), [int(c) for c in columns])


@jax.jit
def predict(readout, x):
    return x[:, jnp.array(readout.columns)] @ readout.w + readout.b
