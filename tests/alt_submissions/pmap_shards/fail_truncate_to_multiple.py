# expect: uses_pmap
# Wrong: drops the entries past the last multiple of the device count; they never reach pmap.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    usable = (x.shape[0] // n) * n
    if usable == 0:
        usable, x = n, jnp.pad(x, (0, n - x.shape[0]))
    return jnp.sum(jax.pmap(lambda r: jnp.sum(r**2))(x[:usable].reshape(n, -1)))
