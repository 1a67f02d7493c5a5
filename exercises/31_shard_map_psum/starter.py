import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def chunk_sum(chunk):
    """Runs on every device: the sum of squares of the part of x that device holds."""
    return jnp.sum(chunk**2)


def sum_of_squares(x):
    mesh = jax.make_mesh((jax.device_count(),), ("i",))
    # TODO: in_specs=P() hands every device the whole of x, so every device computes the whole sum and nothing
    # is shared out. The answer is right; the parallelism is not there.
    total = jax.shard_map(chunk_sum, mesh=mesh, in_specs=P(), out_specs=P())
    return jax.jit(total)(x)


# Not graded: a scratch run (F6 in the app, `jittrainer run shard_map_psum` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    print(jax.device_count(), "devices")
    print(sum_of_squares(jnp.arange(12.0)))
