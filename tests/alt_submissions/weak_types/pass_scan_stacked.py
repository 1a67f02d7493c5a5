# expect: pass
# All learning rates in one float32 NumPy array and all gradients stacked: one jitted scan over the steps.
import jax
import numpy as np


@jax.jit
def run_all(w, grads, lrs):
    def step(w, gl):
        g, lr = gl
        return w - lr * g, None

    w, _ = jax.lax.scan(step, w, (grads, lrs))
    return w


def run(w, grads, lrs):
    return run_all(w, np.stack(grads), np.array([float(lr) for lr in lrs], dtype=np.float32))
