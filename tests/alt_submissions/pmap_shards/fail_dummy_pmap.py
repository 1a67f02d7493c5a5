# expect: uses_pmap
# Wrong: calls a pmap that does no work on a dummy array and sums x on the host; uses_pmap checks that every
# value of x reaches the pmapped function.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    jax.pmap(lambda z: z)(jnp.zeros(n))  # "goes through pmap"
    return jnp.sum(x**2)
