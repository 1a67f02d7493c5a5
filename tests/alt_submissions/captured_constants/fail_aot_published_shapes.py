# expect: runs
# Compiles ahead of time at import for the statement's example shapes (D=4, H=16, K=2, batch 8); the graded
# shapes are drawn per run, so the compiled function refuses them.
import jax
import jax.numpy as jnp
import numpy as np


def _mlp(params, x):
    return jnp.tanh(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]


_example = {"w1": np.zeros((4, 16), np.float32), "b1": np.zeros(16, np.float32),
            "w2": np.zeros((16, 2), np.float32), "b2": np.zeros(2, np.float32)}
_compiled = jax.jit(_mlp).lower(_example, np.zeros((8, 4), np.float32)).compile()


def make_predictor(params):
    return lambda x: _compiled(params, x)
