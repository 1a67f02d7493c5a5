# Hard-codes eight devices (the canteen in the story); this machine has four.
import jax
import jax.numpy as jnp


def sum_of_squares(x):
    rows = jnp.pad(x, (0, -x.shape[0] % 8)).reshape(8, -1)
    return jnp.sum(jax.pmap(lambda r: jnp.sum(r**2))(rows))
