# expect: pass
# Two heads per 128-wide row, kept per position: (32, 64, 6, 128). The statement lists this shape; the last
# dimension is a full 128, the 6 before it is not a multiple of 8.
def keys(x, w):
    return (x @ w).reshape(32, 64, 6, 128)
