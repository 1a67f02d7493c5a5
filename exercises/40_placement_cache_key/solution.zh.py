from functools import partial

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

# 每一批都用同一个放置位置：一个覆盖每个设备的网格，只创建一次，x 沿它按行拆分。
# 权重很小：每个设备都拿一份完整的副本。
mesh = jax.make_mesh((jax.device_count(),), ("batch",))
by_rows = NamedSharding(mesh, P("batch"))
everywhere = NamedSharding(mesh, P())


@partial(jax.jit, in_shardings=(by_rows, everywhere), out_shardings=by_rows)
def _forward(x, w):
    return jax.nn.softmax(x @ w, axis=-1)


def predict(x, w):
    return _forward(x, w)
