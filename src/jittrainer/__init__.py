"""jittrainer: graded exercises for the pitfalls of ``jax.jit``."""

__version__ = "0.1.0"
