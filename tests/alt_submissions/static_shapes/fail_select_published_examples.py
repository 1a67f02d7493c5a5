# expect: values
# Wrong (issue case): written for the values an older statement published, n = 0, 3, 7 and 16; any other n gets 0.
# The grader draws n over 0..16, so this fails every time.
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_n(x, n):
    c = jnp.cumsum(x)
    return jnp.select([n == 0, n == 3, n == 7, n == 16], [0.0, c[2], c[6], c[15]], default=0.0)
