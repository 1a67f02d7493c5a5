# expect: pass
# Right: logs scale through jax.debug.callback, jax.debug.print and an io_callback that returns nothing; these
# callbacks only take values out of the program, none feeds a value into it, so follows_scale must pass.
import jax
import jax.numpy as jnp
from jax.experimental import io_callback

SCALE = 2.0
seen = []


@jax.jit
def scaled_relu(x, scale):
    jax.debug.callback(lambda s: seen.append(float(s)), scale)
    jax.debug.print("scale={s}", s=scale)
    io_callback(lambda s: None, None, scale, ordered=True)
    return jnp.maximum(0, x) * scale
