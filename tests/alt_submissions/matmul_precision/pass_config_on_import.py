# expect: pass
# Sets the default matmul precision for the whole process when the file is imported: the grader traces project
# afterwards, so the product is written into the program at float32 precision (the statement says such a setting
# counts).
import jax

jax.config.update("jax_default_matmul_precision", "highest")


def project(x, w):
    return x @ w
