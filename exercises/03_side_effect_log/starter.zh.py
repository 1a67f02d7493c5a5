import jax

log = []  # 每次调用 compute 都必须把它的输入追加到这里


@jax.jit
def compute(x):
    # TODO: 这个 append 只在 JAX 追踪 compute 时执行：
    # 只执行一次，而且存进去的是追踪器，不是值。
    log.append(x)
    return x * 2


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run side_effect_log`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    for value in (1.0, 2.0, 3.0):
        compute(value)
    print(log)
