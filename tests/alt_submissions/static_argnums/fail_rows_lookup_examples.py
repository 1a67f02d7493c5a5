# expect: values
# Wrong (issue case): static rows, but the row count comes from a table written for the example values (2, 3, 4);
# anything else gets 3 rows. The grader draws rows over every divisor of 12, so this fails every time.
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def reshape_rows(x, rows):
    return x.reshape(({2: 2, 3: 3, 4: 4}.get(rows, 3), -1))
