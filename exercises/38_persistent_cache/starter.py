import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    pred = hidden @ params["w2"] + params["b2"]
    return jnp.mean((pred - y) ** 2)


def enable_compilation_cache(cache_dir):
    # Compiled programs go to disk: the sweep's next trial, a new process, loads them instead of compiling.
    jax.config.update("jax_compilation_cache_dir", cache_dir)


def train(params, batches, lr, cache_dir):
    """One trial of the sweep: SGD with momentum at this trial's learning rate, one step per batch."""
    enable_compilation_cache(cache_dir)
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


# Not graded: a scratch run (F6 in the app, `jittrainer run persistent_cache` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
# It runs one trial in this process; the sweep runs each trial in a new one, sharing the folder.
if __name__ == "__main__":
    import os
    import tempfile

    import numpy as np

    jax.config.update("jax_explain_cache_misses", True)  # JAX logs what the cache does (to stderr, under python)
    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(0, 0.7, (4, 16)).astype(np.float32), "b1": np.zeros(16, np.float32),
              "w2": rng.normal(0, 0.5, 16).astype(np.float32), "b2": np.float32(0.0)}
    batches = []
    for _ in range(8):
        x = rng.normal(size=(32, 4)).astype(np.float32)
        batches.append((x, np.sin(x.sum(axis=1)).astype(np.float32)))
    cache_dir = tempfile.mkdtemp(prefix="sweep-cache-")
    params = train(params, batches, 0.05, cache_dir)
    x, y = batches[0]
    print(f"loss after the trial: {float(loss_fn(params, x, y)):.4f}")
    print(f"programs in the cache folder: {len(os.listdir(cache_dir))}")
