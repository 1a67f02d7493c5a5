import jax

log = []  # every call of compute must add its input here


@jax.jit
def compute(x):
    # TODO: this append runs only while JAX traces compute: once, and it stores a tracer, not the value.
    log.append(x)
    return x * 2
