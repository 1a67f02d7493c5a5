# expect: pass
# A fori_loop with Python bounds is a scan; the checkpointed layer indexes the stacked weights itself.
import jax
import jax.numpy as jnp


def loss(params, x, y):
    w1s, w2s = params["w1"], params["w2"]

    @jax.checkpoint
    def layer(l, h):
        return h + jnp.tanh(h @ w1s[l]) @ w2s[l]

    h = jax.lax.fori_loop(0, w1s.shape[0], layer, x)
    return jnp.mean((h - y) ** 2)
