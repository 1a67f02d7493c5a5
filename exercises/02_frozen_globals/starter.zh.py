import jax
import jax.numpy as jnp

SCALE = 2.0  # 评分器在每次调用前都会修改它；scaled_relu 不能依赖它


@jax.jit
def scaled_relu(x, scale):
    # TODO: SCALE 只在 JAX 追踪 scaled_relu 时被读取一次，并被冻结进编译好的程序；
    # 参数 scale 被忽略了。
    return jnp.maximum(0, x) * SCALE
