# expect: follows_scale
# Scales, but forgets the relu.
import jax

SCALE = 2.0


@jax.jit
def scaled_relu(x, scale):
    return x * scale
