# expect: pass
# Right: jax.nn.relu, and a SCALE with another value than the starter's (the grader sets it anyway).
import jax

SCALE = 1.0


@jax.jit
def scaled_relu(x, scale):
    return jax.nn.relu(x) * scale
