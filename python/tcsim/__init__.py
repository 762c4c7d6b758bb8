"""tcsim: a cycle-approximate simulator of NVIDIA Blackwell (sm_100a) and Hopper (sm_90a) tensor
cores that runs the PTX nvcc emits, bit for bit, with numpy arrays in and out.

    import numpy as np, tcsim
    dev = tcsim.Device(arch="sm_100a")
    mod = dev.load_ptx(open("saxpy.ptx").read(), "saxpy.ptx")
    y = np.ones(1024, np.float32)
    r = dev.launch(mod.kernel("saxpy"), grid=8, block=128, args=[np.float32(2), x, y, np.uint32(1024)])
    r.outputs[2], r.cycles, r.timing, r.findings

    tcsim.run_spec("kernels/tcgen05/gemm_bf16.json")["outputs"]["D"]

See python/README.md.
"""
from ._tcsim import Device, Kernel, LaunchResult, Module, SimError, TensorMap, run_spec

__all__ = ["Device", "Kernel", "LaunchResult", "Module", "SimError", "TensorMap", "run_spec"]
