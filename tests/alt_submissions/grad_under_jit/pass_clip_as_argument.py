# expect: pass
# clip_gradient takes the value and one clip; the backward rule returns a zero cotangent array for clip.
import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


@jax.custom_vjp
def clip_gradient(x, clip):
    return x


def fwd(x, clip):
    return x, clip


def bwd(clip, g):
    return jnp.clip(g, -clip, clip), jnp.zeros_like(clip)


clip_gradient.defvjp(fwd, bwd)


def loss(params, x, y, clip, activation):
    h = clip_gradient(ACTIVATIONS[activation](x @ params["w1"] + params["b1"]), clip)
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


grads = jax.jit(jax.grad(loss), static_argnames=("activation",))
