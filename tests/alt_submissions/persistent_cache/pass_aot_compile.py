# expect: pass
# Compiled ahead of time once the cache is set up; the rate in the optimizer's state.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)


def train_step(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = jnp.asarray(lr, jnp.float32)
    x0, y0 = batches[0]
    compiled = jax.jit(train_step).lower(params, opt_state, x0, y0).compile()
    for x, y in batches:
        params, opt_state = compiled(params, opt_state, x, y)
    return params
