import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


# A linear readout over some of an embedding's 32 features. The weights are data (traced); which features it
# reads is metadata (static), so jit bakes the selection into the program as a plain gather.
@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array  # float32[k, 3]: one row per selected feature
    b: jax.Array  # float32[3]
    columns: np.ndarray  # int64[k]: the selected features, in order


jax.tree_util.register_dataclass(Readout, data_fields=["w", "b"], meta_fields=["columns"])


def make_readout(w, b, columns):
    # TODO: every evaluation loads its readout afresh, and the second call of predict raises ValueError while
    # JAX compares the new readout's metadata with the one it compiled for: == on two NumPy arrays is an array.
    return Readout(jnp.asarray(w), jnp.asarray(b), columns)


@jax.jit
def predict(readout, x):
    return x[:, readout.columns] @ readout.w + readout.b


# Not graded: a scratch run (F6 in the app, `jittrainer run pytree_metadata` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 32)).astype(np.float32)
    w, b = rng.normal(size=(3, 3)).astype(np.float32), np.zeros(3, np.float32)
    print(predict(make_readout(w, b, np.array([5, 0, 9])), x))
    print(predict(make_readout(w, b, np.array([5, 0, 9])), x))  # the same readout, loaded again
