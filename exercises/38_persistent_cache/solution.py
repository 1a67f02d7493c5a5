import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def enable_compilation_cache(cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    # JAX writes only programs that took at least this long to compile (1 s by default): the step compiles in a
    # fraction of a second, so with the default it is never written. 0 writes every program.
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)


# The learning rate lives in the optimizer's state, as an array: the program is the same for every trial, and so is
# its key on disk. (optax.sgd(lr) would write lr into the program as a constant: a new program for every rate.)
optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.01, momentum=0.9)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lr, cache_dir):
    enable_compilation_cache(cache_dir)  # before the first compile of the trial
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = np.float32(lr)
    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
