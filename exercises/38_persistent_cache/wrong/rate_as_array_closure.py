# expect: hit
# "A Python float gets baked in, so make it an array": optax.sgd(jnp.asarray(lr)). The array is still closed over,
# not passed in: JAX writes its value into the program as a constant, and the key changes with it.
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
    optimizer = optax.sgd(jnp.asarray(lr, jnp.float32), momentum=0.9)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
