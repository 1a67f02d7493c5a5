# expect: in_program
# Keeps NumPy by sending q and k back to Python with jax.pure_callback: the values are right, but the softmax runs
# on the host at every call; the compiled program only waits for it.
import jax
import jax.numpy as jnp
import numpy as np


def _host_softmax(q, k):
    scores = np.asarray(q) @ np.asarray(k).T / np.sqrt(q.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


@jax.jit
def attention_weights(q, k):
    shape = jax.ShapeDtypeStruct((q.shape[0], k.shape[0]), jnp.float32)
    return jax.pure_callback(_host_softmax, shape, q, k)
