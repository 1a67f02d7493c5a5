# expect: follows_scale
# Wrong: a pure_callback reads SCALE through sys.modules (no SCALE name in the code); detected from the jaxpr.
import sys
import numpy as np
import jax
import jax.numpy as jnp

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    mod = sys.modules[__name__]
    s = jax.pure_callback(lambda: np.float32(getattr(mod, "S" + "CALE")), jax.ShapeDtypeStruct((), jnp.float32))
    return jnp.maximum(0, x) * s
