import jax
import jax.numpy as jnp


@jax.jit
def seq_mean(s):
    return jnp.mean(s)


def batch_means(seqs):
    # TODO：每条序列都有自己的长度，所以每个新长度都是一种新的输入形状，
    # seq_mean 会为它重新追踪、重新编译一次。
    return [seq_mean(s) for s in seqs]


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run recompile_storm`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    seqs = [np.arange(n, dtype=np.float32) for n in range(1, 17)]
    print(batch_means(seqs))
