import numpy as np, jax, jax.numpy as jnp
def mem(f,*xs):
    c=jax.jit(f).lower(*xs).compile(); m=c.memory_analysis()
    return (m.argument_size_in_bytes, m.output_size_in_bytes, m.temp_size_in_bytes)
def logical(*xs): return sum(x.size*x.dtype.itemsize for x in xs)
for shape in [(1000,3,3),(3,3,1000),(4096,3,3),(3,3,4096),(64,9,129),(9,129,64),(2,3,5,7),(100,10),(128,10),(10,128),(8,100),(16,1000),(4096,3),(4096,2),(4096,1),(1,4096),(100000,3),(3,100000),(50,50),(7,7,7,7),(1000,1000)]:
    x=jnp.ones(shape)
    a,o,t=mem(lambda x:x+1,x)
    print("arg",shape,"logical",logical(x),"arg",a,"ratio %.2f"%(a/logical(x)),flush=True)
n=4096
R=jnp.ones((n,3,3)); p=jnp.ones((n,3))
print("aos rotate", mem(lambda R,p: jnp.einsum("nij,nj->ni",R,p), R,p), logical(R,p))
Rs=jnp.ones((3,3,n)); ps=jnp.ones((3,n))
print("soa rotate", mem(lambda R,p: jnp.einsum("ijn,jn->in",R,p), Rs,ps), logical(Rs,ps))
# learner-made intermediates: a (n,3) made inside from three vectors
x=jnp.ones(n)
print("stack last then sum", mem(lambda a,b,c: (jnp.stack([a,b,c],-1)**2).sum(-1), x,x,x))
print("stack first then sum", mem(lambda a,b,c: (jnp.stack([a,b,c],0)**2).sum(0), x,x,x))
# out of scan carry small dims
def f(h):
    def step(h,_): return jnp.tanh(h@jnp.ones((h.shape[-1],h.shape[-1]))),h
    return jax.lax.scan(step,h,None,length=16)[1]
print("scan (9,129) ys", mem(f,jnp.ones((9,129))), "logical ys", 16*9*129*4)
print("scan (16,128) ys", mem(f,jnp.ones((16,128))), "logical ys", 16*16*128*4)
print("scan (8,128) ys", mem(f,jnp.ones((8,128))), "logical ys", 16*8*128*4)
