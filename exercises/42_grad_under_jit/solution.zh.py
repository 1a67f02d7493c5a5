import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


# lo 和 hi 是普通参数：和 x 一样被追踪，所以一个程序就能应付每一个 clip 值。这里不对它们求导，
# 所以反向规则为它们返回 None（零余切）。
@jax.custom_vjp
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(bounds, g):
    lo, hi = bounds
    return (None, None, jnp.clip(g, lo, hi))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(params, x, y, clip, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    h = clip_gradient(-clip, clip, h)
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# activation 决定运行哪段代码（一个 Python 字符串）：静态参数，每种 activation 一个程序。clip 是数：被追踪。
grads = jax.jit(jax.grad(loss), static_argnames="activation")
