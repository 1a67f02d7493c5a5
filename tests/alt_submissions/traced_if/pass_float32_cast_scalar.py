# expect: pass
# Mask arithmetic, cast explicitly to a float32 scalar of shape ().
import jax.numpy as jnp


def heat(delta):
    on = (delta > 0).astype(jnp.float32)
    return jnp.float32(on * (1.5 * delta + 2.0) + (1.0 - on) * (0.25 * delta)).reshape(())
