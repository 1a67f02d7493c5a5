# expect: pass
# review: review.left.weak
# Right, but weakly typed: every learning rate is passed as a Python float. One compile serves them all, since all
# are weak alike; a float32 would be the strong, stable choice.
import jax


@jax.jit
def sgd_step(w, g, lr):
    return w - lr * g


def run(w, grads, lrs):
    for g, lr in zip(grads, lrs):
        w = sgd_step(w, g, float(lr))
    return w
