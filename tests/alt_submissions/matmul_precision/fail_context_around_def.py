# expect: on_chip
# Puts the precision context around the definition instead of inside the function: it is gone again by the
# time the grader traces project, so the product is traced at the default precision.
import jax

with jax.default_matmul_precision("float32"):

    def project(x, w):
        return x @ w
