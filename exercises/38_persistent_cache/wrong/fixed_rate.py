# expect: values
# "Make every trial's program the same": one learning rate written into the step for every trial. Trial 2 now hits
# the cache, but it no longer trains at the rate the sweep gave it.
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


optimizer = optax.sgd(0.05, momentum=0.9)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    opt_state = optimizer.init(params)
    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
