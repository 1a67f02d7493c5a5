# expect: pass
# Jitted by the learner, with the count kept int32 and the mean updated as a weighted average.
import jax
import jax.numpy as jnp


@jax.jit
def center(state, x):
    n = jnp.int32(x.shape[0])
    count = state["count"] + n
    w = n.astype(jnp.float32) / count.astype(jnp.float32)
    mean = (1.0 - w) * state["mean"] + w * jnp.mean(x, axis=0)
    return {"mean": mean, "count": count}, x - mean
