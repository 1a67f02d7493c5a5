# expect: one_compile
# A correct pytree, but __init__ turns the bias into a typed float32 scalar; the grader later assigns a Python
# float (weakly typed), a different input type, so jit compiles again.
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w, b):
        self.w = jnp.asarray(w)
        self.b = jnp.float32(b)

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = object.__new__(cls)
        obj.w, obj.b = children
        return obj

    @jax.jit
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
