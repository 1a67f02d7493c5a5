# expect: one_compile
# Makes lr static so that "its type no longer matters": every distinct learning rate is now its own compile.
from functools import partial

import jax


@partial(jax.jit, static_argnums=2)
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, float(lr))
    return w
