# expect: follows_scale
# Builds a fresh jit per call hoping it re-reads SCALE; the grader jits scaled_relu, so the inner jit is traced
# once inside it and SCALE is still frozen.
import jax
import jax.numpy as jnp

SCALE = 2.0


def scaled_relu(x, scale):
    return jax.jit(lambda v: jnp.maximum(0, v) * SCALE)(x)
