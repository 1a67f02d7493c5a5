# expect: pass
# One ahead-of-time compile per distinct tuple, kept in a dict keyed by the tuple.
import jax
import jax.numpy as jnp

_compiled = {}


def _impl(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


def pyramid_pool(x, windows):
    key = tuple(windows)
    if key not in _compiled:
        _compiled[key] = jax.jit(_impl, static_argnums=1).lower(x, key).compile()
    return _compiled[key](x)
