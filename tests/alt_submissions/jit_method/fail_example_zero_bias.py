# expect: values
# A pytree, one compile, but the bias is dropped ("b is usually 0"): wrong whenever b is not 0.
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):
        return jnp.tanh(x @ self.w)
