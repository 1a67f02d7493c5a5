# expect: pass
# Not jitted here: the grader's jax.jit traces steps, and the while loop counts at run time.
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.05


def step(x, v):
    a = -x - 0.5 * x**3 - 0.3 * v
    v = v + DT * a
    return x + DT * v, v


def simulate(x, steps):
    def more(state):
        return state[0] < steps

    def tick(state):
        i, pos, vel = state
        pos, vel = step(pos, vel)
        return i + 1, pos, vel

    _, pos, _ = lax.while_loop(more, tick, (0, x, jnp.zeros_like(x)))
    return pos
