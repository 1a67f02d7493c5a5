import jax


@jax.jit
def heat(delta):
    # TODO：在 jit 下，delta 是一个追踪器：追踪时 Python 无法判断它是否大于零。
    if delta > 0:
        return 1.5 * delta + 2.0
    return 0.25 * delta
