# Wrong for this exercise: jit with a NamedSharding never calls jax.pmap; the message says pmap is what is graded,
# without claiming the code runs on one device.
import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def sum_of_squares(x):
    n = jax.local_device_count()
    padded = np.pad(np.asarray(x), (0, (-len(x)) % n))
    mesh = Mesh(np.array(jax.local_devices()), ("d",))
    arr = jax.device_put(padded, NamedSharding(mesh, P("d")))
    return jax.jit(lambda a: jnp.sum(a**2))(arr)
