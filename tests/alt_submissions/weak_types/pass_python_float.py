# expect: pass
# The other direction: make every learning rate a plain Python float, weakly typed every time.
import jax


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, float(lr))
    return w
