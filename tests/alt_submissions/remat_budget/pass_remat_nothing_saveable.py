# expect: pass
# jax.remat is jax.checkpoint; the policy says outright that nothing inside the layer is saved.
import jax
import jax.numpy as jnp


def loss(params, x, y):
    def body(h, w):
        return h + jnp.tanh(jnp.dot(h, w[0])) @ w[1], None

    body = jax.remat(body, policy=jax.checkpoint_policies.nothing_saveable, prevent_cse=False)
    h, _ = jax.lax.scan(body, x, (params["w1"], params["w2"]))
    return jnp.mean(jnp.square(h - y))
