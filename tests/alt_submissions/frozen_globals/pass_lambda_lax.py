# expect: pass
# Right: a lambda with lax.max, jitted by the grader.
import jax
from jax import lax

SCALE = 2.0

scaled_relu = jax.jit(lambda x, scale: lax.max(x, 0.0) * scale)
