import jax
import jax.numpy as jnp
import numpy as np


# 一个排序模型的打分层：512 个查询对 512 个候选。它的测试把 logit 和 float64 的参考结果比较，在 CPU 上
# 能通过；在 TPU 上，logit 从第三位有效数字起就对不上了。
def project(x, w):
    return x @ w


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run matmul_precision`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 512)).astype(np.float32)
    w = rng.standard_normal((512, 512)).astype(np.float32)
    reference = x.astype(np.float64) @ w.astype(np.float64)
    out = np.asarray(jax.jit(project)(jnp.asarray(x), jnp.asarray(w)), np.float64)
    error = np.abs(out - reference).max() / np.abs(reference).max()
    print(f"on {jax.default_backend()}: max|out - ref| / max|ref| = {error:.2g}")
