import jax
import jax.numpy as jnp


@jax.jit
def batch_loss(params, x, y):
    # x：float32[8, n]，8 条长度为 n 的序列；y：float32[8]
    features = jnp.tanh(x[:, :, None] * params["w_in"] + params["b_in"])  # [8, n, 16]
    pred = features.mean(axis=1) @ params["w_out"] + params["b_out"]  # 在 n 个位置上取平均
    return jnp.mean((pred - y) ** 2)


def evaluate(params, task):
    # 每个任务调用一次，一个任务接一个任务；每个任务有自己的序列长度。
    losses = [float(batch_loss(params, x, y)) for x, y in task]
    return sum(losses) / len(losses)


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run cache_growth`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    params = {"w_in": rng.normal(size=16).astype(np.float32), "b_in": np.zeros(16, np.float32),
              "w_out": rng.normal(size=16).astype(np.float32), "b_out": np.float32(0.0)}
    for n in (5, 12, 40, 7, 100):
        task = [(rng.normal(size=(8, n)).astype(np.float32), rng.normal(size=8).astype(np.float32))
                for _ in range(3)]
        print(f"length {n}: score {evaluate(params, task):.4f}, programs cached: {batch_loss._cache_size()}")
