import jax
import jax.numpy as jnp


def mlp(params, x):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # TODO: the lambda closes over params, so jit bakes every weight into the compiled program as a
    # constant; and each new set of weights is a new function, compiled again from scratch.
    return jax.jit(lambda x: mlp(params, x))


# Not graded: a scratch run (F6 in the app, `jittrainer run captured_constants` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    shapes = {"w1": (4, 16), "b1": (16,), "w2": (16, 2), "b2": (2,)}
    x = np.ones((8, 4), np.float32)
    for _ in range(2):
        params = {name: rng.normal(size=shape).astype(np.float32) for name, shape in shapes.items()}
        print(make_predictor(params)(x)[0])
