# expect: in_program
# Looks the prices up in NumPy on the host and hands them back through pure_callback.
import jax
import numpy as np


def _host(prices, dishes):
    prices, dishes = np.asarray(prices), np.asarray(dishes)
    ok = (dishes >= 0) & (dishes < prices.size)
    return np.where(ok, prices[np.clip(dishes, 0, prices.size - 1)], -1.0).astype(prices.dtype)


@jax.jit
def lookup_prices(prices, dishes):
    return jax.pure_callback(_host, jax.ShapeDtypeStruct(dishes.shape, prices.dtype), prices, dishes)
