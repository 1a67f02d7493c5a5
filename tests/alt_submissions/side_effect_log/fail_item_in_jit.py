# .item() on a tracer inside jit.
import jax

log = []


@jax.jit
def compute(x):
    log.append(x.item())
    return x * 2
