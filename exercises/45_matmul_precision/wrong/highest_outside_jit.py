# expect: on_chip
# Sets the precision around the jax.jit line: jit traces at the first call, after the block has ended, so the
# program's dot_general asks for DEFAULT.
import jax


def _project(x, w):
    return x @ w


with jax.default_matmul_precision("highest"):
    project = jax.jit(_project)
