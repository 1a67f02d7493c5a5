import jax


# TODO：在这个普通的 @jax.jit 下，rows 和 x 一样被追踪，但 reshape 需要一个具体的行数。
@jax.jit
def reshape_rows(x, rows):
    return x.reshape((rows, -1))
