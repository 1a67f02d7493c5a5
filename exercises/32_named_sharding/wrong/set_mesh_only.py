# expect: rows_sharded
# Sets a mesh of every device as the default, but never says how to split anything: x and both results are
# replicated, so every device computes every row.
import jax
import jax.numpy as jnp

jax.set_mesh(jax.make_mesh((jax.device_count(),), ("rows",)))


@jax.jit
def _normalize(x):
    norms = jnp.linalg.norm(x, axis=1)
    return x / norms[:, None], norms


def normalize_rows(x):
    return _normalize(x)
