import jax
import jax.numpy as jnp


def layer(h, weights):
    # One residual block: widen to the hidden size, tanh, back to the model width.
    w1, w2 = weights
    return h + jnp.tanh(h @ w1) @ w2, None


def loss(params, x, y):
    # TODO: the training step takes jax.value_and_grad of this loss, and XLA plans almost 10 MiB of temporary
    # memory for it: the backward pass keeps every layer's hidden activations, for all 16 layers at once.
    h, _ = jax.lax.scan(layer, x, (params["w1"], params["w2"]))
    return jnp.mean((h - y) ** 2)


# Not graded: a scratch run (F6 in the app, `jittrainer run remat_budget` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(0, 0.12, (16, 64, 256)).astype(np.float32),
              "w2": rng.normal(0, 0.02, (16, 256, 64)).astype(np.float32)}
    x = rng.normal(size=(256, 64)).astype(np.float32)
    y = rng.normal(size=(256, 64)).astype(np.float32)
    step = jax.jit(jax.value_and_grad(loss))
    compiled = step.lower(params, x, y).compile()
    print("temp MiB:", compiled.memory_analysis().temp_size_in_bytes / 2**20)
    print("loss:", step(params, x, y)[0])
