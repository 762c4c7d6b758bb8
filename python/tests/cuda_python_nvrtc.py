"""A cuda-python program, unmodified: NVRTC compiles a saxpy kernel to PTX for the device's
compute capability, the driver API (cuda.bindings.driver) loads and launches it. Run on
libtcsim-cuda (python/CMakeLists.txt, python_cuda_python) it must compute y = a x + y exactly.
Exit 77 (skipped) when cuda-python is not installed."""
try:
    import numpy as np
    from cuda.bindings import driver as cu, nvrtc
except ImportError as e:
    print(f"SKIPPED: cuda-python (cuda.bindings) is not installed: {e}")
    raise SystemExit(77)

def check(r):
    err = r[0]
    if isinstance(err, cu.CUresult) and err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA error {err}: {cu.cuGetErrorName(err)[1]}")
    if isinstance(err, nvrtc.nvrtcResult) and err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC error {err}")
    return r[1:] if len(r) > 2 else (r[1] if len(r) == 2 else None)

src = b"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""
check(cu.cuInit(0))
dev = check(cu.cuDeviceGet(0))
major = check(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
minor = check(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))
name = check(cu.cuDeviceGetName(64, dev))
print("device", name.split(b"\0")[0].decode(), major, minor)
prog = check(nvrtc.nvrtcCreateProgram(src, b"saxpy.cu", 0, [], []))
arch = f"--gpu-architecture=compute_{major}{minor}a".encode()
check(nvrtc.nvrtcCompileProgram(prog, 1, [arch]))
size = check(nvrtc.nvrtcGetPTXSize(prog))
ptx = b" " * size
check(nvrtc.nvrtcGetPTX(prog, ptx))
ctx = check(cu.cuCtxCreate(None, 0, dev))
mod = check(cu.cuModuleLoadData(ptx))
fn = check(cu.cuModuleGetFunction(mod, b"saxpy"))
n = 1000
x = np.arange(n, dtype=np.float32)
y = np.ones(n, dtype=np.float32)
dx = check(cu.cuMemAlloc(x.nbytes)); dy = check(cu.cuMemAlloc(y.nbytes))
check(cu.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes)); check(cu.cuMemcpyHtoD(dy, y.ctypes.data, y.nbytes))
a = np.array([2.5], dtype=np.float32); nn = np.array([n], dtype=np.uint32)
pdx = np.array([int(dx)], dtype=np.uint64); pdy = np.array([int(dy)], dtype=np.uint64)
args = np.array([a.ctypes.data, pdx.ctypes.data, pdy.ctypes.data, nn.ctypes.data], dtype=np.uint64)
stream = check(cu.cuStreamCreate(0))
check(cu.cuLaunchKernel(fn, (n + 127) // 128, 1, 1, 128, 1, 1, 0, stream, args.ctypes.data, 0))
check(cu.cuStreamSynchronize(stream))
out = np.empty_like(y)
check(cu.cuMemcpyDtoH(out.ctypes.data, dy, out.nbytes))
ok = np.array_equal(out, (np.float32(2.5) * x + np.float32(1)).astype(np.float32))
print("saxpy", "correct" if ok else "WRONG", out[:4])
raise SystemExit(0 if ok else 1)
