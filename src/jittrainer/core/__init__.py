"""The engine: exercises, grading, verdicts and progress. No Textual here, and no jax outside the worker."""
