# expect: no_warning
# Donates every argument "to save memory": the gradient and the learning rate have no output to go into.
import jax
import jax.numpy as jnp


def step(w, g, lr):
    new = jnp.clip(w - lr * g, -1.0, 1.0)
    return new, jnp.max(jnp.abs(new - w))


step = jax.jit(step, donate_argnums=(0, 1, 2))


def train(w, grads, lr):
    out = []
    for g in grads:
        w, d = step(w, g, lr)
        out.append(d)
    return w, out
