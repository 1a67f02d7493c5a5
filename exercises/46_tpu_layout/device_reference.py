def reference(x, w):
    """The keys the device executor holds the TPU's result against: float64 NumPy, no jax. x is (32, 64, 768), w
    (768, 768), both upcast to float64 by the executor; the keys as (batch, position, head, dim). With any_shape
    the result may have another shape and is compared in row-major order."""
    return (x @ w).reshape(32, 64, 12, 64)
