# expect: pass
# The write threshold set once, when the file is imported; the folder when the trial starts; the
# optimizer made per trial: inject_hyperparams keeps the rate in its state, an array the step receives.
import jax
import jax.numpy as jnp
import optax

jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=lr, momentum=0.9)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params, opt_state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    for x, y in batches:
        params, opt_state = train_step(params, opt_state, x, y)
    return params
