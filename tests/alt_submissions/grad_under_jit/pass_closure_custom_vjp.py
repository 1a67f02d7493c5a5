# expect: pass
# The custom_vjp is built inside the loss and closes over the traced clip: no nondiff_argnums needed.
import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


def loss(params, x, y, clip, activation):
    @jax.custom_vjp
    def bounded(h):
        return h

    def fwd(h):
        return h, None

    def bwd(_, g):
        return (jnp.clip(g, -clip, clip),)

    bounded.defvjp(fwd, bwd)
    h = bounded(ACTIVATIONS[activation](x @ params["w1"] + params["b1"]))
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


grads = jax.jit(jax.grad(loss), static_argnums=4)
