# expect: pass
# A trainer object that jits its step once, when it is made; the rate travels with the optimizer state.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


class Trainer:
    def __init__(self, cache_dir):
        jax.config.update("jax_compilation_cache_dir", cache_dir)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        self.optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.0, momentum=0.9)
        self.step = jax.jit(self._step)

    def _step(self, params, opt_state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    def fit(self, params, batches, lr):
        opt_state = self.optimizer.init(params)
        opt_state.hyperparams["learning_rate"] = np.float32(lr)
        for x, y in batches:
            params, opt_state = self.step(params, opt_state, x, y)
        return params


def train(params, batches, lr, cache_dir):
    return Trainer(cache_dir).fit(params, batches, lr)
