# expect: pass
# static_argnums and a positional call, with the list turned into a tuple first.
import jax
import jax.numpy as jnp


def _impl(x, windows):
    pieces = [jnp.mean(jnp.reshape(x, (x.shape[0] // w, w)), axis=1) for w in windows]
    return jnp.concatenate(pieces)


_pool = jax.jit(_impl, static_argnums=1)


def pyramid_pool(x, windows):
    return _pool(x, tuple(int(w) for w in windows))
