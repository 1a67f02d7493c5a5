# expect: runs
# Makes windows an array so it can be traced: but its numbers decide the shapes, and a traced number has no value.
import jax
import jax.numpy as jnp


@jax.jit
def _pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    return _pool(x, jnp.asarray(windows))
