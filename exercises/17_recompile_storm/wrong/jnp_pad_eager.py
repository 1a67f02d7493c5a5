# expect: compile_budget
# Pads with jnp.pad, eagerly, outside jit: jnp.pad is compiled for every new input length,
# so the storm of compiles just moved from the mean to the padding.
import jax
import jax.numpy as jnp


@jax.jit
def masked_means(padded, lengths):
    mask = jnp.arange(padded.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(mask, padded, 0.0), axis=1) / lengths


def batch_means(seqs):
    padded = jnp.stack([jnp.pad(s, (0, 64 - len(s))) for s in seqs])
    lengths = jnp.array([len(s) for s in seqs])
    return masked_means(padded, lengths)
