# expect: compiles
# Power-of-two buckets, but padded with jnp.pad outside jit: JAX compiles its own padding program for every new
# length, on top of the bucket's program.
import jax
import jax.numpy as jnp


@jax.jit
def padded_loss(params, x, y, n):
    # x: float32[8, width], only the first n positions of each row are data
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])
    mask = (jnp.arange(x.shape[1]) < n)[None, :, None]
    pred = (features * mask).sum(axis=1) / n @ params["w_out"] + params["b_out"]
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    losses = []
    for x, y in task:
        n = x.shape[1]
        width = 1 << (n - 1).bit_length()
        xp = jnp.pad(x, ((0, 0), (0, width - n)))
        losses.append(float(padded_loss(params, xp, y, n)))
    return sum(losses) / len(losses)
