import jax
import jax.numpy as jnp


@jax.jit
def seq_mean(s):
    return jnp.mean(s)


def batch_means(seqs):
    # TODO：每条序列都有自己的长度，所以每个新长度都是一种新的输入形状，
    # seq_mean 会为它重新追踪、重新编译一次。
    return [seq_mean(s) for s in seqs]
