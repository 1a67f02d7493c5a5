import jax


@jax.jit
def mlp(x, w_in, w_out):
    """张量并行的 transformer 层中的前馈块。

    x：    float32[B, D]，在每个设备上完整保存
    w_in： float32[D, H]，沿网格轴 "model" 按列拆分
    w_out：float32[H, D]，沿网格轴 "model" 按行拆分
    """
    hidden = jax.nn.gelu(x @ w_in)  # float32[B, H@model]：每个设备计算 H 中属于自己的那几列
    # TODO：hidden 和 w_out 都沿 H 拆分，而这个乘积正是沿 H 求和，所以每个设备只持有一个部分和：
    # JAX 不会去猜该怎么处理它，而是抛出 ShardingTypeError。
    return hidden @ w_out


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run sharding_in_types`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
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
