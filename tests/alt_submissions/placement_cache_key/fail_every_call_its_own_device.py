# expect: one_compile
# Sends call i to device i mod n, with the weights committed there once per device: each device's first batch is a
# new placement.
import jax

_devices = jax.devices()
_weights = {}
_count = [0]


@jax.jit
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    device = _devices[_count[0] % len(_devices)]
    _count[0] += 1
    if device.id not in _weights:
        _weights[device.id] = jax.device_put(w, device)
    return _forward(jax.device_put(x, device), _weights[device.id])
