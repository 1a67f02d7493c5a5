# expect: pass
# lax.min and value_and_grad, jitted with jax.jit(f) rather than a decorator.
import jax
import jax.numpy as jnp
from jax import lax


def _loss(w, x, y):
    return jnp.mean(jnp.square(jnp.dot(x, w) - y))


def _step(w, x, y, lr):
    _, g = jax.value_and_grad(_loss)(w, x, y)
    return w - lax.min(jnp.asarray(lr, w.dtype), jnp.asarray(0.5, w.dtype)) * g


sgd_step = jax.jit(_step)
