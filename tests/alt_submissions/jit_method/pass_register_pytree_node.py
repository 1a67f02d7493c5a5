# expect: pass
# register_pytree_node with two functions; the jitted function is made once, outside the class, and takes the layer.
import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def apply(self, x):
        return _apply(self, x)


jax.tree_util.register_pytree_node(
    Layer,
    lambda layer: ((layer.w, layer.b), None),
    lambda _, children: Layer(*children),
)

_apply = jax.jit(lambda layer, x: jnp.tanh(x @ layer.w + layer.b))
