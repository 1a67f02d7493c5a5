import jax
import jax.numpy as jnp


# A pytree: jit flattens a Layer into its leaves (w and b), traces them like any array argument, and rebuilds it.
@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w, b):
        self.w = w  # float32[8, 4] weights
        self.b = b  # a Python float: the bias

    def tree_flatten(self):
        return (self.w, self.b), None  # children (traced), auxiliary data (static)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)

    # self is an ordinary traced argument now: new values reach the same compiled program.
    @jax.jit
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
