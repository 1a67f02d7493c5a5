import functools

import jax
import jax.numpy as jnp

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "softplus": jax.nn.softplus}


# The identity going forward; going backward, it clips the gradient that flows through it to [lo, hi].
@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, None


def clip_gradient_bwd(lo, hi, _, g):
    return (jnp.clip(g, lo, hi),)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def loss(params, x, y, clip, activation):
    h = ACTIVATIONS[activation](x @ params["w1"] + params["b1"])
    h = clip_gradient(-clip, clip, h)  # bound what flows back into the hidden layer
    pred = h @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


# TODO: clip changes on every step (it follows the recent gradient norms). With clip traced, the custom_vjp
# raised UnexpectedTracerError, so clip was made static too: now every new clip value compiles the step again.
grads = jax.jit(jax.grad(loss), static_argnames=("clip", "activation"))


# Not graded: a scratch run (F6 in the app, `jittrainer run grad_under_jit` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(size=(16, 32)).astype(np.float32), "b1": np.zeros(32, np.float32),
              "w2": rng.normal(size=(32, 4)).astype(np.float32), "b2": np.zeros(4, np.float32)}
    x = rng.normal(size=(8, 16)).astype(np.float32)
    y = rng.normal(size=(8, 4)).astype(np.float32)
    for clip in (0.01, 0.02, 0.03):
        print(clip, grads(params, x, y, clip, "tanh")["b1"][:4])
    print("compiled programs:", grads._cache_size())
