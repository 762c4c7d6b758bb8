"""tcsim.Device.launch with numpy arrays and scalars, against numpy's own IEEE arithmetic."""
import numpy as np
import pytest

import tcsim

# y[i] = a * x[i] + y[i] with two roundings (mul.rn, add.rn), the same numpy float32 does.
SAXPY = r"""
.version 8.0
.target sm_90a
.address_size 64
.visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<6>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<8>;
  ld.param.f32 %f1, [a];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1;
  @%p bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  add.u64 %rd4, %rd1, %rd3;
  add.u64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  mul.rn.f32 %f4, %f1, %f2;
  add.rn.f32 %f4, %f4, %f3;
  st.global.f32 [%rd5], %f4;
DONE:
  ret;
}
"""

# Stores its scalar parameters' bytes: u8, u16, u64, f64 (each widened to 8 bytes).
SCALARS = r"""
.version 8.0
.target sm_100a
.address_size 64
.visible .entry scalars(.param .u64 out, .param .u8 a, .param .u16 b, .param .u64 c, .param .f64 d)
{
  .reg .b16 %h<3>;
  .reg .b64 %rd<8>;
  .reg .f64 %fd1;
  ld.param.u64 %rd1, [out];
  ld.param.u8 %h1, [a];
  ld.param.u16 %h2, [b];
  ld.param.u64 %rd4, [c];
  ld.param.f64 %fd1, [d];
  cvt.u64.u16 %rd2, %h1;
  cvt.u64.u16 %rd3, %h2;
  st.global.u64 [%rd1], %rd2;
  st.global.u64 [%rd1+8], %rd3;
  st.global.u64 [%rd1+16], %rd4;
  st.global.f64 [%rd1+24], %fd1;
  ret;
}
"""


def test_saxpy_matches_numpy_bit_for_bit():
    dev = tcsim.Device(arch="sm_90a")
    mod = dev.load_ptx(SAXPY, "saxpy.ptx")
    assert mod.kernels == ["saxpy"]
    k = mod.kernel("sax")  # a unique substring, as in a launch spec
    assert [p[1] for p in k.params] == [4, 8, 8, 4]
    rng = np.random.default_rng(5)
    n = 1000
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    r = dev.launch(k, grid=(n + 127) // 128, block=128, args=[2.5, x, y, n])
    expect = np.float32(2.5) * x + y
    assert r.outputs[0] is None and r.outputs[3] is None
    assert r.outputs[1].tobytes() == x.tobytes()  # inputs come back unchanged
    assert r.outputs[2].view(np.uint32).tolist() == expect.view(np.uint32).tolist()
    assert y.tolist() != expect.tolist()  # the caller's array is not written in place
    assert r.cycles > 0 and r.timing["cycles"] == r.cycles
    assert r.timing["ms"] == pytest.approx(r.cycles / 1.98e6)  # the H200's 1980 MHz clock
    assert r.timing["thread_instructions"] >= r.timing["warp_instructions"] > 0


def test_same_launch_same_bits_and_cycles_any_thread_count():
    x = np.arange(4096, dtype=np.float32)
    y = np.ones(4096, dtype=np.float32)
    results = []
    for threads in (1, 2):
        dev = tcsim.Device(arch="sm_90a", threads=threads)
        k = dev.load_ptx(SAXPY).kernel("saxpy")
        results.append(dev.launch(k, grid=32, block=128, args=[np.float32(-1.5), x, y, np.uint32(4096)]))
    assert results[0].cycles == results[1].cycles
    assert results[0].outputs[2].tobytes() == results[1].outputs[2].tobytes()


def test_scalars_by_parameter_size():
    dev = tcsim.Device()
    k = dev.load_ptx(SCALARS).kernel("scalars")
    out = np.zeros(4, dtype=np.uint64)
    r = dev.launch(k, grid=1, block=1, args=[out, 0xAB, np.uint16(0xBEEF), -2, 0.1])
    got = r.outputs[0]
    assert got[0] == 0xAB and got[1] == 0xBEEF
    assert got[2] == (1 << 64) - 2  # -2 in two's complement
    assert got[3:].view(np.float64)[0] == 0.1
    # raw bytes for a parameter of that size
    r = dev.launch(k, grid=1, block=1, args=[out, b"\x01", b"\x02\x03", (7).to_bytes(8, "little"), 1.0])
    assert r.outputs[0][:3].tolist() == [1, 0x0302, 7]


def test_bad_arguments_are_one_clear_error():
    dev = tcsim.Device()
    k = dev.load_ptx(SCALARS).kernel("scalars")
    out = np.zeros(4, dtype=np.uint64)
    with pytest.raises(ValueError, match=r"2 arguments given, the kernel takes 5: .*\(8 bytes\)"):
        dev.launch(k, grid=1, block=1, args=[out, 1])
    with pytest.raises(TypeError, match=r"args\[1\] \(parameter 1 'a', 1 bytes\): 300 does not fit"):
        dev.launch(k, grid=1, block=1, args=[out, 300, 1, 1, 1.0])
    with pytest.raises(TypeError, match=r"args\[3\] .*: a 4-byte numpy scalar"):
        dev.launch(k, grid=1, block=1, args=[out, 1, 1, np.uint32(1), 1.0])
    with pytest.raises(ValueError, match="C-contiguous"):
        dev.launch(k, grid=1, block=1, args=[np.zeros((4, 4), np.uint64)[:, 0], 1, 1, 1, 1.0])
    with pytest.raises(ValueError, match="is not one tcsim models"):
        tcsim.Device(arch="sm_80")
    with pytest.raises(ValueError, match=r"error: .*at 'bogus'"):
        dev.load_ptx(".version 8.0\n.target sm_100a\nbogus;\n")


def test_kernel_fault_is_a_sim_error_naming_the_place():
    dev = tcsim.Device(arch="sm_90a")
    k = dev.load_ptx(SAXPY, "saxpy.ptx").kernel("saxpy")
    small = np.zeros(16, dtype=np.float32)
    with pytest.raises(tcsim.SimError, match=r"kernel saxpy: saxpy\.ptx:24 .*CTA \(0,0,0\) warp 0 lane 16.*0 bytes past the end of allocation"):
        dev.launch(k, grid=2, block=128, args=[1.0, small, small, 256])
