# expect: pass
# float(lr) makes every learning rate a weak Python float on the host; a debug print in the step is allowed.
import jax


@jax.jit
def sgd_step(w, g, lr):
    jax.debug.print("lr {lr}", lr=lr)
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, float(lr))
    return w
