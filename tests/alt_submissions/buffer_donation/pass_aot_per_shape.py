# expect: pass
# Compiles the donating step ahead of time, once per weight shape, and keeps the compiled copies.
import jax
import jax.numpy as jnp


def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


_compiled = {}


def train(w, grads, lr):
    key = (w.shape, str(w.dtype))
    if key not in _compiled:
        _compiled[key] = jax.jit(step, donate_argnums=0).lower(w, grads[0], lr).compile()
    changes = []
    for g in grads:
        w, change = _compiled[key](w, g, lr)
        changes.append(change)
    return w, changes
