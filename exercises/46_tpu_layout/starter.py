import jax
import jax.numpy as jnp
import numpy as np


# The keys of one decoder layer, for its KV cache: 12 heads of 64 at each of 64 positions of 32 sequences. The
# cache stores what keys returns, as it returns it. On the CPU its memory report says 6 MiB; on a TPU it is about
# twice that, or more.
def keys(x, w):
    return (x @ w).reshape(32, 64, 12, 64)


# Not graded: a scratch run (F6 in the app, `jittrainer run tpu_layout` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((32, 64, 768)).astype(np.float32))
    w = jnp.asarray((rng.standard_normal((768, 768)) / np.sqrt(768)).astype(np.float32))
    compiled = jax.jit(keys).lower(x, w).compile()
    out = compiled(x, w)
    logical = out.size * out.dtype.itemsize
    stored = compiled.memory_analysis().output_size_in_bytes
    print(f"on {jax.default_backend()}: result {out.dtype}{list(out.shape)}, {logical:,} bytes logical, "
          f"{stored:,} bytes in memory ({stored / logical:.2f}x)")
