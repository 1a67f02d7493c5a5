# expect: pass
# The whole trial in one program: the batches stacked and scanned; the learning rate passed in.
import jax
import jax.numpy as jnp
import numpy as np
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


momentum = optax.trace(decay=0.9)


@jax.jit
def run_trial(params, xs, ys, lr):
    def one(carry, batch):
        params, state = carry
        grads = jax.grad(loss_fn)(params, *batch)
        velocity, state = momentum.update(grads, state)
        return (jax.tree.map(lambda p, v: p - lr * v, params, velocity), state), None

    (params, _), _ = jax.lax.scan(one, (params, momentum.init(params)), (xs, ys))
    return params


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    xs = np.stack([x for x, _ in batches])
    ys = np.stack([y for _, y in batches])
    return run_trial(params, xs, ys, lr)
