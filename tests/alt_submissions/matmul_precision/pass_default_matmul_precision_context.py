# expect: pass
# Leaves the operator alone and raises the default for everything traced inside the function with the
# jax.default_matmul_precision context manager.
import jax


def project(x, w):
    with jax.default_matmul_precision("float32"):
        return x @ w
