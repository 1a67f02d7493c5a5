# expect: temp_budget
# Replaces the scan with a Python loop of checkpointed layers: XLA schedules the unrolled program as a whole,
# and the checkpoints do not bring it under the budget.
import jax
import jax.numpy as jnp


@jax.checkpoint
def block(h, w1, w2):
    return h + jnp.tanh(h @ w1) @ w2


def loss(params, x, y):
    h = x
    for l in range(params["w1"].shape[0]):
        h = block(h, params["w1"][l], params["w2"][l])
    return jnp.mean((h - y) ** 2)
