# expect: uses_shard_map
# The previous exercise's answer: right values with pmap, but this exercise is about jax.shard_map.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    n = jax.local_device_count()
    rows = jnp.pad(x, (0, -x.shape[0] % n)).reshape(n, -1)
    return jnp.sum(jax.pmap(lambda r: jnp.sum(r**2))(rows))
