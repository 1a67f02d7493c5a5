def keys(x, w):
    # Keep the heads folded into the last dimension: (32, 64, 768) fills the TPU's 8 x 128 tiles exactly, where
    # (..., 12, 64) pads every row of 64 to 128. The values are in the same row-major order as (32, 64, 12, 64), so
    # the attention program views them per head with a reshape where it reads the cache, which costs nothing there.
    return x @ w
