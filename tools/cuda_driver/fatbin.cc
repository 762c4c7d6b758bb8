#include "tools/cuda_driver/fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

namespace tcsim::cudrv {
namespace {

// Flags of an entry (docs/cuda_driver.md "Fat binaries").
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// Set on entries for an arch-specific target (sm_90a, sm_100a): observed on nvcc 13.0 output
// (tests/cuda_driver/fatbin_test.cc), where `-gencode arch=compute_100a,code=sm_100a` and
// `...compute_100,code=sm_100` differ in this bit only.
constexpr uint64_t kFlagArchSpecific = 0x100000;
// A decompressed entry larger than this is refused (bad input must not allocate without bound).
constexpr uint64_t kMaxEntryBytes = uint64_t{1} << 31;

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The first `.target` token of PTX text ("sm_100a"); "" if none.
std::string ptx_target_of(std::string_view ptx) {
  size_t p = 0;
  while ((p = ptx.find(".target", p)) != std::string_view::npos) {
    const bool line_start = p == 0 || ptx[p - 1] == '\n' || ptx[p - 1] == ' ' || ptx[p - 1] == '\t';
    p += 7;
    if (!line_start || p >= ptx.size() || (ptx[p] != ' ' && ptx[p] != '\t')) continue;
    while (p < ptx.size() && (ptx[p] == ' ' || ptx[p] == '\t')) ++p;
    size_t e = p;
    while (e < ptx.size() && (std::isalnum(static_cast<unsigned char>(ptx[e])) || ptx[e] == '_')) ++e;
    return std::string(ptx.substr(p, e - p));
  }
  return {};
}

// "sm_100a" -> 100 and the suffix ('a', 'f' or 0); nullopt for anything else.
std::optional<std::pair<uint32_t, char>> split_target(std::string_view t) {
  if (!t.starts_with("sm_")) return std::nullopt;
  t.remove_prefix(3);
  uint32_t v = 0;
  size_t i = 0;
  for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) v = v * 10 + (t[i] - '0');
  if (i == 0 || v > 1000) return std::nullopt;
  if (i == t.size()) return std::pair{v, '\0'};
  if (i + 1 == t.size() && (t[i] == 'a' || t[i] == 'f')) return std::pair{v, t[i]};
  return std::nullopt;
}

}  // namespace

uint32_t arch_sm(isa::Arch arch) {
  switch (arch) {
    case isa::Arch::Sm90a: return 90;
    case isa::Arch::Sm100a:
    case isa::Arch::Sm100f: return 100;
    case isa::Arch::Sm103a: return 103;
  }
  return 0;
}

std::optional<Fatbin> parse_fatbin(const uint8_t* data, uint64_t avail, std::string& error) {
  if (avail < 16) {
    error = "fat binary: truncated header";
    return std::nullopt;
  }
  const uint32_t magic = load<uint32_t>(data);
  const uint16_t header_size = load<uint16_t>(data + 6);
  const uint64_t entries_size = load<uint64_t>(data + 8);
  if (magic != kFatbinMagic) {
    error = fmt::format("fat binary: magic 0x{:08x}, expected 0x{:08x}", magic, kFatbinMagic);
    return std::nullopt;
  }
  if (header_size < 16 || entries_size > kMaxEntryBytes || header_size + entries_size > avail) {
    error = fmt::format("fat binary: header size {} / entries size {} do not fit", header_size, entries_size);
    return std::nullopt;
  }
  Fatbin fb;
  fb.bytes = header_size + entries_size;
  uint64_t p = header_size;
  const uint64_t end = fb.bytes;
  while (p < end) {
    if (end - p < 64) {
      error = fmt::format("fat binary: truncated entry header at offset {}", p);
      return std::nullopt;
    }
    const uint8_t* e = data + p;
    const uint16_t kind = load<uint16_t>(e);
    const uint32_t ehs = load<uint32_t>(e + 4);
    const uint32_t payload = load<uint32_t>(e + 8);
    const uint32_t compressed = load<uint32_t>(e + 16);
    const uint32_t sm = load<uint32_t>(e + 28);
    const uint64_t flags = load<uint64_t>(e + 40);
    const uint64_t uncompressed = load<uint64_t>(e + 56);
    if (ehs < 64 || ehs > end - p || payload > end - p - ehs) {
      error = fmt::format("fat binary: entry at offset {} (header {} + payload {} bytes) overruns the binary", p,
                          ehs, payload);
      return std::nullopt;
    }
    FatbinEntry out;
    out.kind = static_cast<FatbinKind>(kind);
    out.sm = sm;
    out.flags = flags;
    const uint8_t* body = e + ehs;
    if (kind == static_cast<uint16_t>(FatbinKind::Ptx)) {
      if (flags & (kFlagLz4 | kFlagZstd)) {
        if (compressed > payload || uncompressed > kMaxEntryBytes) {
          error = fmt::format("fat binary: PTX entry at offset {}: compressed size {} / size {} out of range", p,
                              compressed, uncompressed);
          return std::nullopt;
        }
        out.payload.resize(uncompressed);
        if (flags & kFlagZstd) {
          const size_t n = ZSTD_decompress(out.payload.data(), out.payload.size(), body, compressed);
          if (ZSTD_isError(n)) {
            error = fmt::format("fat binary: PTX entry at offset {}: zstd: {}", p, ZSTD_getErrorName(n));
            return std::nullopt;
          }
          out.payload.resize(n);
        } else {
          const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(body), out.payload.data(),
                                            static_cast<int>(compressed), static_cast<int>(out.payload.size()));
          if (n < 0) {
            error = fmt::format("fat binary: PTX entry at offset {}: LZ4 data is corrupt", p);
            return std::nullopt;
          }
          out.payload.resize(static_cast<size_t>(n));
        }
      } else {
        out.payload.assign(reinterpret_cast<const char*>(body), payload);
      }
      // PTX text is NUL-terminated and padded.
      if (auto z = out.payload.find('\0'); z != std::string::npos) out.payload.resize(z);
      out.target = ptx_target_of(out.payload);
    } else {
      out.target = fmt::format("sm_{}{}", sm, (flags & kFlagArchSpecific) ? "a" : "");
    }
    fb.entries.push_back(std::move(out));
    p += ehs + payload;
  }
  return fb;
}

const FatbinEntry* select_ptx(const Fatbin& fb, isa::Arch arch, std::string& why) {
  const std::string want(isa::arch_name(arch));
  const uint32_t dev_sm = arch_sm(arch);
  const FatbinEntry* exact = nullptr;
  const FatbinEntry* family = nullptr;
  const FatbinEntry* portable = nullptr;
  uint32_t portable_sm = 0;
  std::vector<std::string> ptx_targets, sass_targets;
  for (const FatbinEntry& e : fb.entries) {
    if (e.kind == FatbinKind::Elf && std::find(sass_targets.begin(), sass_targets.end(), e.target) == sass_targets.end())
      sass_targets.push_back(e.target);
    if (e.kind != FatbinKind::Ptx) continue;
    ptx_targets.push_back(e.target.empty() ? std::string("(no .target)") : e.target);
    if (e.target == want) exact = &e;
    const auto t = split_target(e.target);
    if (!t) continue;
    if (t->second == 'f' && t->first == dev_sm && arch != isa::Arch::Sm90a) family = &e;
    if (t->second == '\0' && t->first <= dev_sm && (!portable || t->first > portable_sm)) {
      portable = &e;
      portable_sm = t->first;
    }
  }
  if (exact) return exact;
  if (family) return family;
  if (portable) return portable;
  const uint32_t sm = dev_sm;
  const char* suffix = arch == isa::Arch::Sm100f ? "f" : "a";
  const std::string gencode = fmt::format("-gencode arch=compute_{0}{1},code=compute_{0}{1} (or -arch=sm_{0}{1}, "
                                          "which embeds PTX next to the SASS)", sm, suffix);
  if (ptx_targets.empty())
    why = fmt::format("the fat binary holds no PTX (SASS only: {}); tcsim runs PTX: rebuild with {}",
                      sass_targets.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(sass_targets, ", ")),
                      gencode);
  else
    why = fmt::format("the fat binary's PTX targets {}, none of which runs on {}: rebuild with {}{}",
                      fmt::join(ptx_targets, ", "), want, gencode,
                      arch != isa::Arch::Sm90a && std::find(ptx_targets.begin(), ptx_targets.end(), "sm_90a") !=
                              ptx_targets.end()
                          ? ", or run it as an H200 (tcsim exec --arch sm_90a)"
                          : "");
  return nullptr;
}

}  // namespace tcsim::cudrv
