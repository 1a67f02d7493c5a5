import jax
import jax.numpy as jnp


@jax.jit
def entropy(logits):
    # log_softmax 在 exp 之前减去每行最大的 logit：什么都不会溢出成 inf，
    # 而且最大的那一项总是 exp(0) = 1，所以和永远不会是 0。
    logp = jax.nn.log_softmax(logits, axis=-1)
    # 很小的概率会下溢为 0，但它的对数保持有限（logp），所以 0 * logp 是 0，绝不会是 0 * -inf。
    return -jnp.sum(jnp.exp(logp) * logp, axis=-1)
