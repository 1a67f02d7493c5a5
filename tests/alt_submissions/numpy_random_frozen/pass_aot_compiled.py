# expect: pass
# Compiled ahead of time for the contract's shapes; the key stays a traced argument.
import jax
import jax.numpy as jnp

NOISE = 0.1


def _add_noise(x, key):
    return x + NOISE * jax.random.normal(key, x.shape)


add_noise = jax.jit(_add_noise).lower(jnp.zeros((64, 16), jnp.float32), jax.random.key(0)).compile()
