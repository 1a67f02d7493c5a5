import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


# 只读取嵌入向量 32 个特征中一部分的线性读出层。权重是数据（被追踪）；读取哪些特征是元数据（静态），
# 所以 jit 把这个列选择作为一个普通的 gather 固化进程序。
@dataclasses.dataclass(frozen=True)
class Readout:
    w: jax.Array  # float32[k, 3]：每个被选中的特征一行
    b: jax.Array  # float32[3]：每个输出一个偏置
    columns: np.ndarray  # int64[k]：被选中的特征，按顺序


jax.tree_util.register_dataclass(Readout, data_fields=["w", "b"], meta_fields=["columns"])


def make_readout(w, b, columns):
    # TODO: 每次评估都会重新加载 readout，而第二次调用 predict 时，JAX 把新 readout 的元数据
    # 和编译时的那份比较，抛出 ValueError：两个 NumPy 数组做 == 得到的是一个数组。
    return Readout(jnp.asarray(w), jnp.asarray(b), columns)


@jax.jit
def predict(readout, x):
    return x[:, readout.columns] @ readout.w + readout.b


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run pytree_metadata`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 32)).astype(np.float32)
    w, b = rng.normal(size=(3, 3)).astype(np.float32), np.zeros(3, np.float32)
    print(predict(make_readout(w, b, np.array([5, 0, 9])), x))
    print(predict(make_readout(w, b, np.array([5, 0, 9])), x))  # 同一个 readout，再加载一次
