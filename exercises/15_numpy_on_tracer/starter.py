import jax
import numpy as np


@jax.jit
def attention_weights(q, k):
    # NumPy on a Python number is fine: q.shape[-1] is known while jit traces.
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ k.T) * scale
    scores = scores - np.max(scores, axis=-1, keepdims=True)
    # TODO: under jit, scores is a tracer, not an array of numbers. What can NumPy do with it?
    e = np.exp(scores)
    return e / np.sum(e, axis=-1, keepdims=True)


# Not graded: a scratch run (F6 in the app, `jittrainer run numpy_on_tracer` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import jax.numpy as jnp

    q = jnp.ones((4, 8))
    k = jnp.ones((6, 8))
    print(attention_weights(q, k))
