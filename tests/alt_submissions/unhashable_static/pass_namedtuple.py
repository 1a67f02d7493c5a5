# expect: pass
# A NamedTuple config, passed by keyword with static_argnames.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class PoolConfig(NamedTuple):
    windows: tuple


def _impl(x, cfg):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in cfg.windows])


_pool = jax.jit(_impl, static_argnames="cfg")


def pyramid_pool(x, windows):
    return _pool(x, cfg=PoolConfig(windows=tuple(windows)))
