# expect: one_compile
# The structure is fixed, but the defaults and the stacked heads are built with eager jax.numpy calls outside jit:
# jnp.ones and jnp.zeros(...).at[...].set each compile a small program of JAX's own.
import jax
import jax.numpy as jnp


@jax.jit
def _loss(pred, target, weight, aux, mask):
    def wmse(a):
        return jnp.sum(weight * (a - target) ** 2, axis=-1) / jnp.sum(weight)

    k = jnp.sum(mask)
    aux_term = jnp.where(k > 0, jnp.sum(jnp.where(mask, wmse(aux), 0.0)) / jnp.maximum(k, 1), 0.0)
    return wmse(pred) + 0.5 * aux_term


def batch_loss(batch):
    pred = batch["pred"]
    n = pred.shape[0]
    weight = batch.get("weight")
    if weight is None:
        weight = jnp.ones(n)
    heads = batch.get("aux") or []
    aux = jnp.zeros((3, n))
    for i, h in enumerate(heads):
        aux = aux.at[i].set(h)
    return _loss(pred, batch["target"], weight, aux, jnp.arange(3) < len(heads))
