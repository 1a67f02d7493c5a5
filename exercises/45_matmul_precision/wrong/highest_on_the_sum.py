# expect: on_chip
# Raises the precision of the wrong operation: the addition of a zero bias has no precision to raise, and the
# matmul itself still runs at the default.
import jax
import jax.numpy as jnp


def project(x, w):
    logits = x @ w
    with jax.default_matmul_precision("highest"):
        return logits + jnp.zeros_like(logits)
