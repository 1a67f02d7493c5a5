# expect: runs
# Calls .item() to get a Python number from every learning rate: a Python float has no .item().
import jax


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, lr.item())
    return w
