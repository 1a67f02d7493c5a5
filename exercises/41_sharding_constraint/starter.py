import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

# The mesh as the training code has always built it: one axis over every device (jax.sharding.Mesh: Auto axes).
mesh = Mesh(np.array(jax.devices()), ("rows",))
by_rows = NamedSharding(mesh, P("rows", None))
everywhere = NamedSharding(mesh, P())


@jax.jit
def _load(table):
    # TODO: the vocabulary has an odd number of words, so its rows do not divide over the devices. On Auto axes this
    # constraint is then dropped without an error, and every device ends up holding the whole table.
    table = jax.lax.with_sharding_constraint(table, by_rows)
    norms = jnp.linalg.norm(table, axis=1)
    return table, jax.lax.with_sharding_constraint(norms, everywhere)


def shard_table(table):
    return _load(table)


# Not graded: a scratch run (F6 in the app, `jittrainer run sharding_constraint` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    n = jax.device_count()
    table = np.random.default_rng(0).normal(size=(4 * n + 1, 3)).astype(np.float32)
    padded, norms = shard_table(table)
    for name, value in (("table", padded), ("norms", norms)):
        print(name, jax.typeof(value), value.sharding, [s.data.shape for s in value.addressable_shards])
