import jax


@jax.jit
def heat(delta):
    # TODO：在 jit 下，delta 是一个追踪器：追踪时 Python 无法判断它是否大于零。
    if delta > 0:
        return 1.5 * delta + 2.0
    return 0.25 * delta


# 不评分：试运行（应用中按 F6，终端中运行 `jittrainer run traced_if`）
# 会执行这段代码，让你看看函数实际做了什么；评分时只导入文件，不会执行它。
if __name__ == "__main__":
    print(heat(2.0))
    print(heat(-4.0))
    print(heat(0.0))
