# expect: normal_noise
# Draws from the key, but a normal truncated to [-2, 2]: mean, spread and the share within ±1 look normal,
# yet no value ever lies beyond two standard deviations.
import jax

NOISE = 0.1


def add_noise(x, key):
    return x + NOISE * jax.random.truncated_normal(key, -2.0, 2.0, x.shape)
