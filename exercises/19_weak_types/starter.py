import jax


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    # The learning rates come from different places: Python floats, NumPy scalars, JAX scalars.
    # TODO: they all hold a number, but does jit see them as the same type of input?
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, lr)
    return w


# Not graded: a scratch run (F6 in the app, `jittrainer run weak_types` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax.numpy as jnp
    import numpy as np

    w = np.ones(8, np.float32)
    grads = [np.ones(8, np.float32)] * 12
    lrs = [0.01, np.float32(0.01), jnp.asarray(0.01), jnp.float32(0.01)] * 3
    print(run(w, grads, lrs))
