from functools import partial

import jax
import jax.numpy as jnp

DT = 0.05


def step(x, v):
    """One tick of a damped, stiffening spring: positions x, velocities v."""
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


@partial(jax.jit, static_argnames="steps")
def simulate(x, steps):
    v = jnp.zeros_like(x)
    # TODO: this loop runs in Python while jit traces simulate, so the program gets
    # one more copy of step for every tick: 200 steps, 200 copies to compile.
    for _ in range(steps):
        x, v = step(x, v)
    return x


# Not graded: a scratch run (F6 in the app, `jittrainer run unrolled_loop` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = jnp.ones(8)
    print(simulate(x, 1))
    print(simulate(x, 20))
