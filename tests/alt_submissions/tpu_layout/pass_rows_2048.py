# expect: pass
# Jits keys itself and stores one row per token: (2048, 768), batch and position merged, the same order.
import jax


@jax.jit
def keys(x, w):
    return x.reshape(32 * 64, 768) @ w
