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
