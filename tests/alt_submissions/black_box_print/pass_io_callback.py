# expect: pass
import jax.numpy as jnp
from jax.experimental import io_callback


def normalize(x):  # not decorated: the grader wraps it in jax.jit
    mean = jnp.mean(x)
    io_callback(lambda m: print("mean", m), None, mean, ordered=True)
    return (x - mean) / jnp.std(x)
