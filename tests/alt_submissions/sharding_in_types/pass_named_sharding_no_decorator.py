# expect: pass
# No jit of its own (the grader jits it), and a NamedSharding on a module-level mesh equal to the grader's.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("model",))


def mlp(x, w_in, w_out):
    hidden = jax.nn.gelu(jnp.matmul(x, w_in))
    return jnp.matmul(hidden, w_out, out_sharding=NamedSharding(mesh, P()))
