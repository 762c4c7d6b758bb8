// Test harness for running PTX through sim::Device: load, allocate, build a parameter buffer with
// the kernel's layout, launch, read back.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "sim/api.h"

namespace tcsim::test {

// The text of the SimError `f` throws (a launch the simulator ends), or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "(no error)";
}

// Kernel parameters laid out as the driver does: each value at its natural alignment.
class Params {
 public:
  template <class T>
  Params& add(T v) {
    size_t off = (bytes_.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes_.resize(off + sizeof(T));
    std::memcpy(bytes_.data() + off, &v, sizeof(T));
    return *this;
  }
  Params& raw(const void* p, size_t n, size_t align) {
    size_t off = (bytes_.size() + align - 1) / align * align;
    bytes_.resize(off + n);
    std::memcpy(bytes_.data() + off, p, n);
    return *this;
  }
  std::span<const std::byte> span() const { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

class Harness {
 public:
  explicit Harness(isa::Arch arch = isa::Arch::Sm100a, sim::DeviceOptions o = {}) : dev(arch, o) {}

  const sim::Module& load(const std::string& ptx, const std::string& name = "test.ptx") {
    mod = &dev.load_ptx(ptx, name);
    return *mod;
  }
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = dev.malloc(std::max<size_t>(1, v.size() * sizeof(T)));
    dev.copy_to_device(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  uint64_t zeros(size_t bytes) {
    uint64_t a = dev.malloc(bytes);
    std::vector<uint8_t> z(bytes, 0);
    dev.copy_to_device(a, z.data(), bytes);
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t a, size_t n) {
    std::vector<T> v(n);
    dev.copy_from_device(v.data(), a, n * sizeof(T));
    return v;
  }
  sim::LaunchResult launch(const std::string& kernel, sim::Dim3 grid, sim::Dim3 block, const Params& p,
                           uint32_t dyn_smem = 0, sim::Dim3 cluster = {}) {
    sim::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    cfg.cluster = cluster;
    cfg.dynamic_smem_bytes = dyn_smem;
    return dev.launch(*mod, kernel, cfg, p.span());
  }

  sim::Device dev;
  const sim::Module* mod = nullptr;
};

// A PTX module header for sm_100a.
inline std::string ptx_header(const std::string& target = "sm_100a") {
  return ".version 9.0\n.target " + target + "\n.address_size 64\n";
}

}  // namespace tcsim::test

namespace tcsim::test {

// Runs a PTX body once per input row (one thread per row). Each row's four 64-bit values are in
// %a0..%a3, their low halves in %x0..%x3 (.b32) and low quarters in %h0..%h3 (.b16). The body
// leaves results in %o0..%o3 (.b64, zero-initialised), which come back per row. Scratch registers:
// %p0..%p7 (.pred), %y0..%y7 (.b32), %z0..%z7 (.b64), %w0..%w7 (.b16).
using Row = std::array<uint64_t, 4>;

inline std::vector<Row> eval(const std::string& body, const std::vector<Row>& rows,
                             isa::Arch arch = isa::Arch::Sm100a, const std::string& prelude = "") {
  const std::string ptx = ptx_header(arch == isa::Arch::Sm90a ? "sm_90a" : "sm_100a") + prelude + R"(
.visible .entry t(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<8>;
  .reg .pred %pd;
  .reg .b16 %h<4>;
  .reg .b16 %w<8>;
  .reg .b32 %x<4>;
  .reg .b32 %y<8>;
  .reg .b32 %ri<8>;
  .reg .b64 %a<4>;
  .reg .b64 %o<4>;
  .reg .b64 %z<8>;
  .reg .b64 %rdi<8>;
  .reg .b128 %q<2>;
  ld.param.u64 %rdi1, [pin];
  ld.param.u64 %rdi2, [pout];
  ld.param.u32 %ri1, [n];
  mov.u32 %ri2, %tid.x;
  mov.u32 %ri3, %ctaid.x;
  mov.u32 %ri4, %ntid.x;
  mad.lo.s32 %ri5, %ri3, %ri4, %ri2;
  setp.ge.u32 %pd, %ri5, %ri1;
  @%pd bra $Ldone;
  mul.wide.u32 %rdi3, %ri5, 32;
  add.s64 %rdi4, %rdi1, %rdi3;
  add.s64 %rdi5, %rdi2, %rdi3;
  ld.global.v2.u64 {%a0, %a1}, [%rdi4];
  ld.global.v2.u64 {%a2, %a3}, [%rdi4+16];
  cvt.u32.u64 %x0, %a0;
  cvt.u32.u64 %x1, %a1;
  cvt.u32.u64 %x2, %a2;
  cvt.u32.u64 %x3, %a3;
  cvt.u16.u64 %h0, %a0;
  cvt.u16.u64 %h1, %a1;
  cvt.u16.u64 %h2, %a2;
  cvt.u16.u64 %h3, %a3;
  mov.b64 %o0, 0;
  mov.b64 %o1, 0;
  mov.b64 %o2, 0;
  mov.b64 %o3, 0;
)" + body + R"(
  st.global.v2.u64 [%rdi5], {%o0, %o1};
  st.global.v2.u64 [%rdi5+16], {%o2, %o3};
$Ldone:
  ret;
}
)";
  Harness h(arch);
  h.load(ptx, "eval.ptx");
  std::vector<uint64_t> flat;
  for (const Row& r : rows) flat.insert(flat.end(), r.begin(), r.end());
  const uint64_t din = h.upload(flat), dout = h.zeros(flat.size() * 8 + 32);
  const uint32_t n = static_cast<uint32_t>(rows.size());
  h.launch("t", {(n + 127) / 128, 1, 1}, {128, 1, 1}, Params().add(din).add(dout).add(n));
  auto out = h.download<uint64_t>(dout, flat.size());
  std::vector<Row> r(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) r[i] = {out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]};
  return r;
}

// One 32-bit result: `instr` computes %y0 from %x0..%x3 (e.g. "add.s32 %y0, %x0, %x1;").
inline std::vector<uint32_t> eval32(const std::string& instr, const std::vector<Row>& rows,
                                    const std::string& prelude = "") {
  auto r = eval(instr + "\n  cvt.u64.u32 %o0, %y0;", rows, isa::Arch::Sm100a, prelude);
  std::vector<uint32_t> v;
  for (auto& x : r) v.push_back(static_cast<uint32_t>(x[0]));
  return v;
}
// One 64-bit result in %z0 from %a0..%a3.
inline std::vector<uint64_t> eval64(const std::string& instr, const std::vector<Row>& rows) {
  auto r = eval(instr + "\n  mov.b64 %o0, %z0;", rows);
  std::vector<uint64_t> v;
  for (auto& x : r) v.push_back(x[0]);
  return v;
}
// One predicate result in %p0.
inline std::vector<bool> evalp(const std::string& instr, const std::vector<Row>& rows) {
  auto r = eval(instr + "\n  selp.u64 %o0, 1, 0, %p0;", rows);
  std::vector<bool> v;
  for (auto& x : r) v.push_back(x[0] != 0);
  return v;
}

}  // namespace tcsim::test
