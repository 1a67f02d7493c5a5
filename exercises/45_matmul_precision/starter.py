import jax
import jax.numpy as jnp
import numpy as np


# The scoring layer of a ranking model: 512 queries against 512 candidates. Its tests compare the logits with a
# float64 reference and pass on the CPU; on the TPU the logits disagree in the third digit.
def project(x, w):
    return x @ w


# Not graded: a scratch run (F6 in the app, `jittrainer run matmul_precision` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 512)).astype(np.float32)
    w = rng.standard_normal((512, 512)).astype(np.float32)
    reference = x.astype(np.float64) @ w.astype(np.float64)
    out = np.asarray(jax.jit(project)(jnp.asarray(x), jnp.asarray(w)), np.float64)
    error = np.abs(out - reference).max() / np.abs(reference).max()
    print(f"on {jax.default_backend()}: max|out - ref| / max|ref| = {error:.2g}")
