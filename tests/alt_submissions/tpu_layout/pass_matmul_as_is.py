# expect: pass
# Returns the product as it comes, (32, 64, 768): the same row-major order as (32, 64, 12, 64), with the heads
# folded into the last dimension.
def keys(x, w):
    return x @ w
