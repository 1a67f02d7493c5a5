# expect: one_compile
# A pytree, but the bias goes into the auxiliary data (it is "just a float"): auxiliary data is static, so every
# new bias compiles again.
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def tree_flatten(self):
        return (self.w,), self.b

    @classmethod
    def tree_unflatten(cls, b, children):
        return cls(children[0], b)

    @jax.jit
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
