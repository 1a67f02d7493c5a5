# expect: pass
# Right: a pmap compiled ahead of time at import for one chunk of n values, then called once per device-sized
# chunk of x (the last one padded with zeros): every call maps exactly the device count.
import numpy as np
import jax
import jax.numpy as jnp

N = jax.local_device_count()
squares = jax.pmap(lambda v: v * v).lower(jnp.zeros(N, jnp.float32)).compile()


def sum_of_squares(x):
    x = np.asarray(x, np.float32)
    total = jnp.float32(0)
    for start in range(0, len(x), N):
        chunk = x[start:start + N]
        chunk = np.concatenate([chunk, np.zeros(N - len(chunk), np.float32)])
        total = total + jnp.sum(squares(chunk))
    return total
