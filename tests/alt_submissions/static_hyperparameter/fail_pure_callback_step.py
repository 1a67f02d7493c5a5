# expect: values
# lr stays traced and one program serves all, but the step is computed in NumPy through jax.pure_callback.
import jax
import numpy as np


def _host_step(w, x, y, lr):
    w, x, y = (np.asarray(v, np.float64) for v in (w, x, y))
    grad = 2.0 / len(y) * x.T @ (x @ w - y)
    return (w - min(float(lr), 0.5) * grad).astype(np.float32)


@jax.jit
def sgd_step(w, x, y, lr):
    return jax.pure_callback(_host_step, jax.ShapeDtypeStruct(w.shape, w.dtype), w, x, y, lr)
