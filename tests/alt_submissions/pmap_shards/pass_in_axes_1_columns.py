# expect: pass
# Right: pads on the host and maps axis 1 of a (cols, devices) array (in_axes=1).
import numpy as np
import jax


def sum_of_squares(x):
    devs = jax.local_device_count()
    cols = int(np.ceil(x.shape[0] / devs))
    buf = np.zeros(devs * cols, dtype=np.float32)
    buf[: x.shape[0]] = np.asarray(x)
    # each device takes one column of a (cols, devs) array
    out = jax.pmap(lambda c: (c * c).sum(), in_axes=1)(buf.reshape(cols, devs))
    return float(np.asarray(out).sum())
