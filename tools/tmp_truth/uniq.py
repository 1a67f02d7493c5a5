import jax, jax.numpy as jnp, numpy as np
print(jax.__version__, jax.devices()[0].platform)
stock = jnp.zeros(8, jnp.float32)
items = jnp.array([2, 0, 2, 2, 7, 0] * 4, jnp.int32)
deltas = jnp.arange(24, dtype=jnp.float32) + 1
f = jax.jit(lambda s, i, d: s.at[i].add(d, unique_indices=True))
g = jax.jit(lambda s, i, d: s.at[i].add(d))
print("unique:", f(stock, items, deltas))
print("plain: ", g(stock, items, deltas))
print(jax.make_jaxpr(lambda s, i, d: s.at[i].add(d, unique_indices=True))(stock, items, deltas))
big = jnp.zeros(1024, jnp.float32); bi = jnp.array(np.random.default_rng(0).integers(0, 16, 4096), jnp.int32); bd = jnp.ones(4096, jnp.float32)
print("big unique sum", float(f(big, bi, bd).sum()), "plain", float(g(big, bi, bd).sum()))
