"""The sandbox side of grading: what runs inside a worker process, next to the learner's code (imports jax)."""
