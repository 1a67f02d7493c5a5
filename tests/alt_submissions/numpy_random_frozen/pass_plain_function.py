# expect: pass
# Not decorated: the grader jits it; the draw still comes from the key argument.
import jax

NOISE = 0.1


def add_noise(x, key):
    return x + jax.random.normal(key, shape=x.shape) * NOISE
