"""The warp-specialised tcgen05 GEMM of kernels/tcgen05 driven from Python: numpy arrays, tensor maps
over them, a CTA-pair launch with cluster=(2,1,1); exact integer inputs, so numpy's integer matmul
is the only right answer."""
import numpy as np
import pytest

import tcsim


def bf16(a):
    """float32 values exactly representable in bf16 -> their bf16 bits (uint16)."""
    return (np.asarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)


@pytest.fixture(scope="module")
def gemm_module(source_dir):
    dev = tcsim.Device(arch="sm_100a")
    return dev, dev.load_ptx((source_dir / "kernels/tcgen05/gemm.ptx").read_text(), "gemm.ptx")


@pytest.mark.parametrize("pair", [False, True])
def test_tcgen05_gemm_with_tensor_maps(gemm_module, pair):
    dev, mod = gemm_module
    m, n, k = (256 if pair else 128), 256, 128
    rng = np.random.default_rng(11)
    a = rng.integers(-3, 4, size=(m, k)).astype(np.float32)
    b = rng.integers(-3, 4, size=(n, k)).astype(np.float32)
    A, B = bf16(a), bf16(b)
    D = np.zeros((m, n), np.float32)
    tmA = tcsim.TensorMap(A, dtype="bf16", global_dims=[k, m], global_strides_bytes=[2 * k], box_dims=[64, 128],
                          swizzle="128B", l2_promotion="256B")
    tmB = tcsim.TensorMap(B, dtype="bf16", global_dims=[k, n], global_strides_bytes=[2 * k],
                          box_dims=[64, 128 if pair else 256], swizzle="128B", l2_promotion="256B")
    kernel = mod.kernel("gemm_bf16_f32_2cta" if pair else "gemm_bf16_f32")
    r = dev.launch(kernel, grid=2 if pair else 1, block=192, args=[tmA, tmB, D, m, n, k, 0],
                   cluster=(2, 1, 1) if pair else None, smem=197632)
    assert np.array_equal(r.outputs[2], a @ b.T)
    assert r.cycles > 0


def test_tensor_map_rules_are_the_drivers(gemm_module):
    dev, mod = gemm_module
    A = np.zeros((128, 128), np.uint16)
    bad = tcsim.TensorMap(A, dtype="bf16", global_dims=[128, 128], global_strides_bytes=[100], box_dims=[64, 128],
                          swizzle="128B")
    D = np.zeros((128, 256), np.float32)
    with pytest.raises(ValueError, match=r"rejected \(as cuTensorMapEncodeTiled would\): .*multiple of 16"):
        dev.launch(mod.kernel("gemm_bf16_f32"), grid=1, block=192, args=[bad, bad, D, 128, 256, 128, 0], smem=197632)
    with pytest.raises(ValueError, match="swizzle '256B' is not one LAUNCH_SPEC.md names"):
        tcsim.TensorMap(A, dtype="bf16", global_dims=[128, 128], global_strides_bytes=[256], box_dims=[64, 128],
                        swizzle="256B")
