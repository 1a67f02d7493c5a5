# expect: pass
# Names the carry and asks the policy to save only that name: the hidden activations are recomputed.
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name


def layer(h, weights):
    w1, w2 = weights
    h = checkpoint_name(h, "carry")
    return h + jnp.tanh(h @ w1) @ w2, None


def loss(params, x, y):
    policy = jax.checkpoint_policies.save_only_these_names("carry")
    h, _ = jax.lax.scan(jax.checkpoint(layer, policy=policy), x, (params["w1"], params["w2"]))
    return ((h - y) ** 2).mean()
