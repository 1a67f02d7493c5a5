# expect: precise
# JAX_ENABLE_X64 set above the file's own `import jax`: float64 when the file runs alone, but the grader imports
# JAX before the file (the statement says so), so the variable is read too late and the gaps are float32.
import os

os.environ["JAX_ENABLE_X64"] = "True"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

_gaps = jax.jit(jnp.diff)


def gaps(t):
    return _gaps(t)
