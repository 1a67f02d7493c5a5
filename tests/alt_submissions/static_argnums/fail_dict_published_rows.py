# expect: runs
# Wrong (issue case): rows is static, but the column count is looked up for the values an older statement showed
# (rows = 2, 3, 4), with 4 for anything else. The grader draws rows over every divisor of 12, so this fails each time.
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    return x.reshape((rows, {2: 6, 3: 4, 4: 3}.get(rows, 4)))
