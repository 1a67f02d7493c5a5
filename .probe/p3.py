import numpy as np, jax, jax.numpy as jnp
def mem(f,*xs):
    c=jax.jit(f).lower(*xs).compile(); m=c.memory_analysis()
    return dict(arg=m.argument_size_in_bytes, out=m.output_size_in_bytes, temp=m.temp_size_in_bytes)
c=jnp.asarray(np.random.RandomState(0).standard_normal((64,50,3)).astype(np.float32))
def d(c): return jnp.sqrt(((c[:,:,None,:]-c[:,None,:,:])**2).sum(-1))
cands={
 "(64,50,50)": d,
 "(64,2500)": lambda c: d(c).reshape(64,2500),
 "(160000,)": lambda c: d(c).reshape(-1),
 "(50,50,64)": lambda c: jnp.transpose(d(c),(1,2,0)),
 "(2500,64)": lambda c: d(c).reshape(64,2500).T,
 "(64,50,50) via coords (3,64,50)": lambda c: d(c),
}
for k,f in cands.items():
    print(k, mem(f,c), "logical out", 64*2500*4, flush=True)
for shape in [(64,50,3),(64,3,50),(3,64,50),(3200,3),(64,150)]:
    x=jnp.ones(shape); print("arg",shape,mem(lambda x:x*2,x), x.size*4)
# logits with 10 classes
for shape in [(1024,10),(10,1024),(10240,),(1024,1000),(1024,1024),(32,12,64,64),(32,64,768)]:
    x=jnp.ones(shape); print("arg",shape,mem(lambda x:x*2,x)["arg"], x.size*4)
