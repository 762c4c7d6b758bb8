// PTX the driver tests load (hand-written; each kernel's semantics in its comment).
#pragma once

namespace tcsim::test {

// saxpy(a, x, y, n): y[i] = a * x[i] + y[i] (mul.rn then add.rn); writes %cluster_nctarank of the
// launch into flags[0] when flags != 0.  cluster_rank(out): out[ctaid.x] = %cluster_ctarank.
// smem_kernel: 1024 bytes of static shared memory, .maxntid 256.  pair_kernel: .reqnctapercluster 2 1 1.
// pdl(out): griddepcontrol.wait; out[0] = 7; griddepcontrol.launch_dependents.
// gvar: a .global u32 table of 4 words initialised 1, 2, 3, 4.
// recurse(out, n): out[0] = down(n), a recursion n calls deep (down(n) = n; each call a stack frame).
inline constexpr const char* kDriverTestPtx = R"(
.version 8.7
.target sm_100a
.address_size 64

.visible .global .align 4 .u32 gvar[4] = {1, 2, 3, 4};

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

.visible .entry cluster_rank(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  mul.wide.u32 %rd2, %r1, 8;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r2, %r3};
  ret;
}

.visible .entry smem_kernel(.param .u64 out) .maxntid 256, 1, 1
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[1024];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  st.shared.u32 [buf], %r1;
  ret;
}

.visible .entry pair_kernel(.param .u64 out) .reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %cluster_nctarank;
  st.global.u32 [%rd1], %r1;
  ret;
}

.visible .entry pdl(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  griddepcontrol.wait;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  griddepcontrol.launch_dependents;
  ret;
}

.visible .entry read_gvar(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, gvar;
  ld.global.u32 %r1, [%rd2+8];
  st.global.u32 [%rd1], %r1;
  ret;
}

.visible .func (.param .b32 r) down(.param .b32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $Lzero;
  sub.s32 %r2, %r1, 1;
  {
  .param .b32 a;
  .param .b32 rv;
  st.param.b32 [a], %r2;
  call.uni (rv), down, (a);
  ld.param.b32 %r3, [rv];
  }
  add.s32 %r3, %r3, 1;
  st.param.b32 [r], %r3;
  ret;
$Lzero:
  st.param.b32 [r], 0;
  ret;
}

.visible .entry recurse(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  {
  .param .b32 a;
  .param .b32 rv;
  st.param.b32 [a], %r1;
  call.uni (rv), down, (a);
  ld.param.b32 %r2, [rv];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

}  // namespace tcsim::test
