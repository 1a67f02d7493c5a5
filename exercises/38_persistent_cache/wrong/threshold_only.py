# expect: hit
# The write threshold lowered, so trial 1 writes the step. But the optimizer is still optax.sgd(lr): the learning
# rate is a constant inside the program, so trial 2, with its own rate, compiles a program of its own.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    optimizer = optax.sgd(lr, momentum=0.9)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
