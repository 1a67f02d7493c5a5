# expect: pass
# The state goes in and comes out; a jax.debug.print of the count is allowed (it keeps nothing).
import jax
import jax.numpy as jnp

STEPS = 0  # a module-level constant that never changes


def center(state, x):
    total = state["mean"] * state["count"] + jnp.sum(x, axis=0)
    count = state["count"] + x.shape[0]
    jax.debug.print("rows seen: {c}", c=count)
    mean = total / count
    return {"mean": mean, "count": count}, x - mean
