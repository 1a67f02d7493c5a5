import time, json, numpy as np, jax, jax.numpy as jnp
from jax import export
t0=time.time(); dev=jax.devices()[0]; print(dev.platform, dev.device_kind, jax.__version__, time.time()-t0, flush=True)
rng=np.random.RandomState(0)
a=rng.standard_normal((512,512)).astype(np.float32); b=rng.standard_normal((512,512)).astype(np.float32)
ref=a.astype(np.float64)@b.astype(np.float64)
def err(y): y=np.asarray(y,np.float64); return float(np.max(np.abs(y-ref))/np.max(np.abs(ref)))
P=jax.lax.Precision
cands={
 "default": lambda a,b: a@b,
 "dot_highest": lambda a,b: jnp.dot(a,b,precision=P.HIGHEST),
 "matmul_str_highest": lambda a,b: jnp.matmul(a,b,precision="highest"),
 "dot_high": lambda a,b: jnp.dot(a,b,precision=P.HIGH),
 "pet_f32": lambda a,b: jnp.dot(a,b,preferred_element_type=jnp.float32),
 "einsum_highest": lambda a,b: jnp.einsum("ij,jk->ik",a,b,precision="highest"),
 "algo_f32": lambda a,b: jnp.dot(a,b,precision=jax.lax.DotAlgorithmPreset.F32_F32_F32),
 "bf16_3x_algo": lambda a,b: jnp.dot(a,b,precision=jax.lax.DotAlgorithmPreset.BF16_BF16_F32_X3),
 "tensorfloat32": lambda a,b: jnp.dot(a,b,precision="tensorfloat32"),
}
def ctx_fn(a,b):
    with jax.default_matmul_precision("float32"):
        return a@b
cands["ctx_float32_inside"]=ctx_fn
out={}
for name,f in cands.items():
    try:
        y=jax.jit(f)(a,b); e=err(y)
        exp=export.export(jax.jit(f),platforms=["tpu"])(a,b)
        txt=exp.mlir_module()
        import re
        prec=re.findall(r"precision_config = \[[^\]]*\]|algorithm = #stablehlo[^>]*>", txt)
        out[name]={"err":e,"hlo":prec[:2]}
    except Exception as ex:
        out[name]={"error":repr(ex)[:300]}
    print(name,out[name],flush=True)
# layout memory
def mem(f,*xs):
    c=jax.jit(f).lower(*xs).compile(); m=c.memory_analysis()
    return {k:getattr(m,k) for k in ("argument_size_in_bytes","output_size_in_bytes","temp_size_in_bytes","alias_size_in_bytes","generated_code_size_in_bytes")}
n=4096
r=jnp.ones(n); th=jnp.ones(n); ph=jnp.ones(n)
def sph(r,t,p): return (r*jnp.sin(t)*jnp.cos(p), r*jnp.sin(t)*jnp.sin(p), r*jnp.cos(t))
lay={
 "stack_last(n,3)": lambda r,t,p: jnp.stack(sph(r,t,p),axis=-1),
 "stack_first(3,n)": lambda r,t,p: jnp.stack(sph(r,t,p),axis=0),
 "tuple3(n,)": lambda r,t,p: sph(r,t,p),
 "identity(n,)": lambda r,t,p: r*2,
}
for name,f in lay.items():
    print("mem",name,mem(f,r,th,ph),flush=True)
for shape in [(9,129),(1,129),(4096,3),(3,4096),(4096,),(8,128),(129,9),(1000,10),(10,1000),(4096,4),(1024,129),(1024,128)]:
    x=jnp.ones(shape)
    print("argmem",shape,mem(lambda x:x+1,x),flush=True)
