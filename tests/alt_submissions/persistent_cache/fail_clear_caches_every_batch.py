# expect: traces
# jax.clear_caches() after every batch "to keep memory flat, the disk cache has it anyway": each batch then traces
# the step again, and only the compile is answered from disk.
import jax
import jax.numpy as jnp
import numpy as np
import optax


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
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = np.float32(lr)
    for x, y in batches:
        params, opt_state = train_step(params, opt_state, x, y)
        jax.clear_caches()
    return params
