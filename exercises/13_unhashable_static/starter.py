from functools import partial

import jax
import jax.numpy as jnp


# windows decides the output's shape, so it is static.
# TODO: the caller passes windows as a list.
@partial(jax.jit, static_argnames="windows")
def pyramid_pool(x, windows):
    return jnp.concatenate([x.reshape(-1, w).mean(axis=1) for w in windows])


# Not graded: a scratch run (F6 in the app, `jittrainer run unhashable_static` in a terminal)
# runs this block to show what your function does; grading imports the file without running it.
if __name__ == "__main__":
    import numpy as np

    x = jnp.arange(24.0)
    print(pyramid_pool(x, (12, 24)))
    print(pyramid_pool(x, [12, 24]))
