# expect: pass
# Right: an undecorated normalize (the grader jits it) with keyword placeholders.
from jax import debug


def normalize(x):
    m = x.mean()
    debug.print("batch mean: {m:.4f}", m=m)
    return (x - m) / x.std()
