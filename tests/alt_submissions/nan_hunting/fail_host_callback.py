# expect: values
# Sends the logits to NumPy in float64 through a callback: no NaN in sight, but the entropy is computed
# on the host, not by the compiled program.
import jax
import jax.numpy as jnp
import numpy as np


def _host_entropy(logits):
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return (-(np.exp(logp) * logp).sum(axis=-1)).astype(np.float32)


@jax.jit
def entropy(logits):
    return jax.pure_callback(_host_entropy, jax.ShapeDtypeStruct(logits.shape[:1], jnp.float32), logits)
