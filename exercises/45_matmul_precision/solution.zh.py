import jax.numpy as jnp


def project(x, w):
    # HIGHEST：在 TPU 的矩阵单元上达到 float32 精度（六遍 bfloat16 计算）。jit 追踪时，这个要求被写进程序
    # 的 dot_general，程序到哪里，它就跟到哪里。
    return jnp.matmul(x, w, precision="highest")
