# expect: pass
# JAX's compilation_cache module to set the folder, a negative threshold, and the rate scaled inside the step.
import jax
import jax.numpy as jnp
import optax
from jax.experimental.compilation_cache import compilation_cache


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


momentum = optax.trace(decay=0.9)


@jax.jit
def train_step(params, state, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)
    velocity, state = momentum.update(grads, state)
    updates = jax.tree.map(lambda v: -lr * v, velocity)
    return optax.apply_updates(params, updates), state


def train(params, batches, lr, cache_dir):
    compilation_cache.set_cache_dir(cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", -1.0)
    state = momentum.init(params)
    for x, y in batches:
        params, state = train_step(params, state, x, y, lr)
    return params
