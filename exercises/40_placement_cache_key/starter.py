import itertools

import jax

# Spread the requests over the devices: the first batch goes to device 0, the next to device 1, and so on.
_next_device = itertools.cycle(jax.devices())


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    device = next(_next_device)
    # TODO: each batch is committed to another device than the last one. The shapes never change, but the
    # placement is part of jit's cache key: every device's first batch compiles the same program again, and each
    # batch still runs on a single device while the others wait.
    return _forward(jax.device_put(x, device), jax.device_put(w, device))


# Not graded: a scratch run (F6 in the app, `jittrainer run placement_cache_key` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    n = jax.device_count()
    w = rng.normal(size=(5, 3)).astype(np.float32)
    for step in range(4):
        probs = predict(rng.normal(size=(2 * n, 5)).astype(np.float32), w)
        print(step, probs.sharding)  # `jittrainer run` also lists what each call compiled
