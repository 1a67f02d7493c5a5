# expect: pass
# x @ w written as an einsum and the bias added after: other float32 rounding, within the fitted tolerance.
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
        return jnp.tanh(jnp.einsum("ri,io->ro", x, self.w) + self.b)
