# expect: pass
# A hand-written rematerialization: the custom rule saves the layer's inputs and differentiates a fresh
# recomputation of the layer in the backward pass.
import jax
import jax.numpy as jnp


def block(h, w1, w2):
    return h + jnp.tanh(h @ w1) @ w2


@jax.custom_vjp
def remat_block(h, w1, w2):
    return block(h, w1, w2)


def remat_fwd(h, w1, w2):
    return block(h, w1, w2), (h, w1, w2)


def remat_bwd(saved, g):
    _, pullback = jax.vjp(block, *saved)
    return pullback(g)


remat_block.defvjp(remat_fwd, remat_bwd)


def loss(params, x, y):
    h, _ = jax.lax.scan(lambda h, w: (remat_block(h, *w), None), x, (params["w1"], params["w2"]))
    return jnp.mean((h - y) ** 2)
