# expect: pass
# Right: logging to stdout from jax.debug.callback.
import logging, sys
import jax
import jax.numpy as jnp

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
log = logging.getLogger("norm")


@jax.jit
def normalize(x):
    mean = jnp.mean(x)
    jax.debug.callback(lambda m: log.info("mean: %s", m), mean)
    return (x - mean) / jnp.std(x)
