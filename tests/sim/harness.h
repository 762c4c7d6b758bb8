// Test harness for running PTX through sim::Device: load, allocate, build a parameter buffer with
// the kernel's layout, launch, read back.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sim/api.h"

namespace tcsim::test {

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
