import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

# One mesh axis over every device of this machine (the count is asked, never written in).
mesh = jax.make_mesh((jax.device_count(),), ("i",))


def chunk_sum(chunk):
    """Runs on every device: the sum of squares of its own block, then added across the devices."""
    return jax.lax.psum(jnp.sum(chunk**2), "i")


total = jax.jit(jax.shard_map(chunk_sum, mesh=mesh, in_specs=P("i"), out_specs=P()))


def sum_of_squares(x):
    n = mesh.size
    # Zeros add nothing to a sum of squares: pad to a multiple of the device count, then split x in n blocks.
    padded = jnp.pad(x, (0, -x.shape[0] % n))
    return total(jax.device_put(padded, NamedSharding(mesh, P("i"))))
