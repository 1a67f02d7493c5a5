# expect: pass
# Not decorated (the grader jits it); guards whole vectors: a zero row is swapped for a unit vector
# before the library norm, and its length is put back as 0.
import jax.numpy as jnp


def lengths(v):
    nonzero = jnp.any(v != 0, axis=-1)
    safe = jnp.where(nonzero[:, None], v, jnp.array([1.0, 0.0, 0.0]))
    return jnp.where(nonzero, jnp.linalg.norm(safe, axis=-1), 0.0)
