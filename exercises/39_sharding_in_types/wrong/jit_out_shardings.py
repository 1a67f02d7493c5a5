# expect: runs
# Asks jax.jit for a replicated result: out_shardings lays out mlp's result only after every operation inside has
# been typed, and the ambiguous product raises first.
from functools import partial

import jax
from jax.sharding import PartitionSpec as P


@partial(jax.jit, out_shardings=P())
def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(x @ w_in)
    return hidden @ w_out
