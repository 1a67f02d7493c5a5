import jax
import jax.numpy as jnp


# 一个 pytree：jit 把 Layer 展平成它的叶子（w 和 b），像追踪任何数组参数一样追踪它们，再把它重建出来。
@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w, b):
        self.w = w  # float32[8, 4] 权重
        self.b = b  # 一个 Python float：偏置

    def tree_flatten(self):
        return (self.w, self.b), None  # 子节点（被追踪）、辅助数据（静态）

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)

    # 现在 self 是一个普通的被追踪参数：新的值会进入同一个编译好的程序。
    @jax.jit
    def apply(self, x):
        return jnp.tanh(x @ self.w + self.b)
