# expect: on_chip
# Folds three heads into each row, (32, 64, 4, 192): wider than a tile's 128 lanes but not a multiple of them, so
# every row of 192 takes two tiles' width, 256. No dimension of the result is a multiple of 128: 1.33x at least,
# whichever dimension the chip lays across the lanes.
def keys(x, w):
    return (x @ w).reshape(32, 64, 4, 192)
