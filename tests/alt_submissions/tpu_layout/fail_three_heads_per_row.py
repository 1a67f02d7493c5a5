# expect: on_chip
# Folds three heads into each row, (32, 64, 4, 192): wider than 128, but not a multiple of it, so a row still ends
# in a part-empty tile.
def keys(x, w):
    return (x @ w).reshape(32, 64, 4, 192)
