import jax, jax.numpy as jnp
x = jnp.ones((32, 64, 768)); w = jnp.ones((768, 768))
for shape in [(32,64,12,64),(32,64,768),(2048,768),(32,64,6,128),(32,384,128),(24576,64),(2048,12,64),(1572864,),(32,64,4,192),(32,64,8,96),(12288,128)]:
    m = jax.jit(lambda x, w: (x @ w).reshape(shape)).lower(x, w).compile().memory_analysis()
    print(shape, m.output_size_in_bytes, round(m.output_size_in_bytes / 6291456, 3), flush=True)
