# expect: runs
# Wrong: a class that looks jitted (forwards .lower/.trace) but prints with NumPy in __call__; the grader
# jits it, so np.asarray meets a tracer. The advice says the grader wrapped normalize.
import numpy as np
import jax
import jax.numpy as jnp


class _Jitted:
    def __init__(self, f):
        self._j = jax.jit(f)
        self.__wrapped__ = f

    def __getattr__(self, name):
        return getattr(self._j, name)

    def __call__(self, x):
        print("mean:", float(np.mean(np.asarray(x))))
        return self._j(x)


normalize = _Jitted(lambda x: (x - jnp.mean(x)) / jnp.std(x))
