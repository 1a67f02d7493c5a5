# expect: pass
import jax
from jax import lax


def _burner_on(d):
    return 1.5 * d + 2.0


def _burner_off(d):
    return 0.25 * d


@jax.jit
def heat(delta):
    return lax.cond(delta > 0, _burner_on, _burner_off, delta)
