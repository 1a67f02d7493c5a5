import jax


@jax.jit
def heat(delta):
    # TODO: under jit, delta is a tracer: Python cannot tell whether it is above zero while tracing.
    if delta > 0:
        return 1.5 * delta + 2.0
    return 0.25 * delta
