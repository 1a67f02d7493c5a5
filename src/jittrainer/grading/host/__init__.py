"""The host side of grading (the CLI or UI process, no jax): worker processes, the warm pool, runs and limits."""
