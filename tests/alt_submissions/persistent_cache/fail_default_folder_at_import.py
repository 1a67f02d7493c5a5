# expect: written
# A default cache folder set at import, with a warm-up compile, then the sweep's folder set in train. The cache
# opened at the first compile, in the default folder, and a process keeps the folder it opened.
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import optax

jax.config.update("jax_compilation_cache_dir", tempfile.mkdtemp(prefix="default-cache-"))
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jnp.zeros(()).block_until_ready()  # warm up the backend


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.01, momentum=0.9)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = np.float32(lr)
    for x, y in batches:
        params, opt_state = train_step(params, opt_state, x, y)
    return params
