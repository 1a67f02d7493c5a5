# expect: prints_each_call
# Prints before the jitted work, with a concrete value; but the grader jits normalize itself,
# so this print is inside the trace again and shows a tracer once.
import jax.numpy as jnp


def _normalize(x):
    return (x - jnp.mean(x)) / jnp.std(x)


def normalize(x):
    print("mean of this batch:", jnp.mean(x))
    return _normalize(x)
