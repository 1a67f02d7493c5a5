# expect: written
# The learning rate moved into the optimizer's state, so every trial's step is the same program. But the write
# threshold is still JAX's default, 1 s: the step compiles faster than that and is never written.
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
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    opt_state = optimizer.init(params)
    opt_state.hyperparams["learning_rate"] = np.float32(lr)
    for x, y in batches:
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params
