# expect: donates
# donate_argnames, and an eager copy of the old weights (never passed to jit) kept across each step to measure the
# change: the old weights stay in memory next to the new ones, which the statement forbids.
import jax
import jax.numpy as jnp


def step(w, g, lr):
    return jnp.clip(w - lr * g, -1.0, 1.0)


step_jit = jax.jit(step, donate_argnames="w")


def train(w, grads, lr):
    changes = []
    for g in grads:
        old = jnp.copy(w)
        w = step_jit(w, g, lr)
        changes.append(float(jnp.max(jnp.abs(w - old))))
    return w, changes
