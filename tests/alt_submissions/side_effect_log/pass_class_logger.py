# expect: pass
# Right: a logger object whose method appends to the module's log from a callback.
import jax
import jax.numpy as jnp

log = []


class Recorder:
    def __init__(self, sink):
        self.sink = sink

    def __call__(self, value):
        self.sink.append(value.item())


@jax.jit
def compute(x):
    jax.debug.callback(Recorder(log), x, ordered=True)
    return jnp.multiply(x, 2)
