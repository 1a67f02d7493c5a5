import jax
import jax.numpy as jnp


def mlp(params, x):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def make_predictor(params):
    # TODO：这个 lambda 是捕获了 params 的闭包，于是 jit 把每个权重都作为常量固化进编译好的程序；
    # 而每一组新权重都是一个新函数，又要从头编译一次。
    return jax.jit(lambda x: mlp(params, x))


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run captured_constants`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    import numpy as np

    rng = np.random.default_rng(0)
    shapes = {"w1": (4, 16), "b1": (16,), "w2": (16, 2), "b2": (2,)}
    x = np.ones((8, 4), np.float32)
    for _ in range(2):
        params = {name: rng.normal(size=shape).astype(np.float32) for name, shape in shapes.items()}
        print(make_predictor(params)(x)[0])
