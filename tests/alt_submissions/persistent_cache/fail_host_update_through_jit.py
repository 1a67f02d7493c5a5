# expect: in_jit
# The update computed with NumPy on the host; a jitted function then takes the new parameters and the batch and
# hands the parameters back with the loss. They come out of jit, but not from the batch it received.
import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


grad_fn = jax.jit(jax.grad(loss_fn))


@jax.jit
def with_loss(params, x, y):
    return params, loss_fn(params, x, y)


def train(params, batches, lr, cache_dir):
    jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    velocity = {k: np.zeros_like(v) for k, v in params.items()}
    for x, y in batches:
        grads = grad_fn(params, x, y)
        velocity = {k: np.asarray(grads[k]) + np.float32(0.9) * velocity[k] for k in params}
        params = {k: params[k] - np.float32(lr) * velocity[k] for k in params}
        params, loss = with_loss(params, x, y)
    return params
