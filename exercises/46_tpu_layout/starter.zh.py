import jax
import jax.numpy as jnp
import numpy as np


# 解码器某一层的键，给它的 KV 缓存用：32 个序列、每个 64 个位置，每个位置 12 个 64 维的头。缓存按 keys 返回的
# 样子存放它。在 CPU 上，内存报告说它是 6 MiB；在 TPU 上，它大约是这个数的两倍，甚至更多。
def keys(x, w):
    return (x @ w).reshape(32, 64, 12, 64)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run tpu_layout`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
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
