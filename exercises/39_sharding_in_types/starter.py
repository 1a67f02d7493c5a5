import jax


@jax.jit
def mlp(x, w_in, w_out):
    """The feed-forward block of a tensor-parallel transformer layer.

    x:     float32[B, D], whole on every device
    w_in:  float32[D, H], split by columns over the mesh axis "model"
    w_out: float32[H, D], split by rows over the mesh axis "model"
    """
    hidden = jax.nn.gelu(x @ w_in)  # float32[B, H@model]: each device computes its own columns of H
    # TODO: hidden and w_out are both split along H, the dimension this product sums over, so every device holds
    # only a partial sum: JAX raises ShardingTypeError instead of guessing what to do with it.
    return hidden @ w_out


# Not graded: a scratch run (F6 in the app, `jittrainer run sharding_in_types` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("model",))
    jax.set_mesh(mesh)
    rng = np.random.default_rng(0)
    x = jax.device_put(rng.normal(size=(n, 2 * n)).astype(np.float32), NamedSharding(mesh, P()))
    w_in = jax.device_put(rng.normal(size=(2 * n, 4 * n)).astype(np.float32), NamedSharding(mesh, P(None, "model")))
    w_out = jax.device_put(rng.normal(size=(4 * n, 2 * n)).astype(np.float32), NamedSharding(mesh, P("model", None)))
    print(jax.typeof(x), jax.typeof(w_in), jax.typeof(w_out))
    y = mlp(x, w_in, w_out)
    print(jax.typeof(y), [shard.data.shape for shard in y.addressable_shards])
