# expect: pass
# simmer rewritten as a scan over 16 rounds instead of fori_loop: the same numbers, so the results still match.
import jax
import jax.numpy as jnp
from jax import lax


def simmer(x, w):
    def body(y, _):
        return y + 0.1 * jnp.tanh(w @ y), None

    return lax.scan(body, x, None, length=16)[0]


def quick(x):
    return 0.5 * x


@jax.jit
def finish(x, w):
    return lax.cond(jnp.max(jnp.abs(x)) > 1.0, simmer, lambda x, w: quick(x), x, w)
