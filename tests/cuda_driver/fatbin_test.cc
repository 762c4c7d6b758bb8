// Fat binaries (tools/cuda_driver/fatbin.h): entries in every encoding nvcc 13.0 writes (PTX raw,
// zstd, LZ4 block; SASS) and the choice of PTX per device. The layout facts themselves are checked
// on nvcc's real output by the kernels/host programs, built with --compress-mode default (zstd),
// speed (LZ4) and none (kernels/host/CMakeLists.txt); here: the parser's rules and its refusals.
#include <doctest/doctest.h>
#include <lz4.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

#include "tools/cuda_driver/fatbin.h"

namespace {

using tcsim::cudrv::FatbinKind;

enum class Pack { Raw, Zstd, Lz4 };

// One entry: the 64-byte header (fatbin.h's layout) + payload.
void add_entry(std::vector<uint8_t>& fb, FatbinKind kind, uint32_t sm, bool arch_specific, const std::string& body, Pack pack) {
  std::vector<uint8_t> payload(body.begin(), body.end());
  payload.push_back(0);
  const uint64_t plain = payload.size();
  uint64_t flags = 0x11 | (arch_specific ? 0x100000 : 0);
  if (pack == Pack::Zstd) {
    std::vector<uint8_t> z(ZSTD_compressBound(plain));
    z.resize(ZSTD_compress(z.data(), z.size(), payload.data(), plain, 3));
    payload = z;
    flags |= 0x8000;
  } else if (pack == Pack::Lz4) {
    std::vector<uint8_t> z(LZ4_compressBound(static_cast<int>(plain)));
    z.resize(LZ4_compress_default(reinterpret_cast<const char*>(payload.data()), reinterpret_cast<char*>(z.data()),
                                  static_cast<int>(plain), static_cast<int>(z.size())));
    payload = z;
    flags |= 0x2000;
  }
  const uint32_t compressed = static_cast<uint32_t>(payload.size());
  while (payload.size() % 8) payload.push_back(0);
  uint8_t h[64] = {};
  const uint16_t k = static_cast<uint16_t>(kind), ver = 0x101;
  const uint32_t hs = 64, ps = static_cast<uint32_t>(payload.size());
  std::memcpy(h, &k, 2);
  std::memcpy(h + 2, &ver, 2);
  std::memcpy(h + 4, &hs, 4);
  std::memcpy(h + 8, &ps, 4);
  if (pack != Pack::Raw) std::memcpy(h + 16, &compressed, 4);
  std::memcpy(h + 28, &sm, 4);
  std::memcpy(h + 40, &flags, 8);
  if (pack != Pack::Raw) std::memcpy(h + 56, &plain, 8);
  fb.insert(fb.end(), h, h + 64);
  fb.insert(fb.end(), payload.begin(), payload.end());
}

std::vector<uint8_t> wrap(const std::vector<uint8_t>& entries) {
  std::vector<uint8_t> fb(16 + entries.size());
  const uint32_t magic = tcsim::cudrv::kFatbinMagic;
  const uint16_t ver = 1, hs = 16;
  const uint64_t size = entries.size();
  std::memcpy(fb.data(), &magic, 4);
  std::memcpy(fb.data() + 4, &ver, 2);
  std::memcpy(fb.data() + 6, &hs, 2);
  std::memcpy(fb.data() + 8, &size, 8);
  if (!entries.empty()) std::memcpy(fb.data() + 16, entries.data(), entries.size());
  return fb;
}

std::string ptx_for(const char* target) { return std::string(".version 9.0\n.target ") + target + "\n.address_size 64\n"; }

}  // namespace

TEST_CASE("every payload encoding decodes to the PTX text") {
  for (Pack p : {Pack::Raw, Pack::Zstd, Pack::Lz4}) {
    std::vector<uint8_t> e;
    add_entry(e, FatbinKind::Ptx, 100, true, ptx_for("sm_100a"), p);
    const auto fb = wrap(e);
    std::string err;
    const auto parsed = tcsim::cudrv::parse_fatbin(fb.data(), fb.size(), err);
    REQUIRE_MESSAGE(parsed.has_value(), err);
    REQUIRE(parsed->entries.size() == 1);
    CHECK(parsed->entries[0].payload == ptx_for("sm_100a"));
    CHECK(parsed->entries[0].target == "sm_100a");
    CHECK(parsed->bytes == fb.size());
  }
}

TEST_CASE("the PTX a device runs: its own arch, then family, then the newest portable one") {
  std::vector<uint8_t> e;
  add_entry(e, FatbinKind::Elf, 100, true, "\x7f" "ELF", Pack::Raw);
  add_entry(e, FatbinKind::Ptx, 80, false, ptx_for("sm_80"), Pack::Zstd);
  add_entry(e, FatbinKind::Ptx, 90, false, ptx_for("sm_90"), Pack::Zstd);
  add_entry(e, FatbinKind::Ptx, 90, true, ptx_for("sm_90a"), Pack::Zstd);
  add_entry(e, FatbinKind::Ptx, 100, true, ptx_for("sm_100a"), Pack::Lz4);
  const auto fb = wrap(e);
  std::string err, why;
  const auto parsed = tcsim::cudrv::parse_fatbin(fb.data(), fb.size(), err);
  REQUIRE(parsed.has_value());
  CHECK(parsed->entries[0].target == "sm_100a");  // SASS: sm + the arch-specific flag
  CHECK(tcsim::cudrv::select_ptx(*parsed, tcsim::isa::Arch::Sm100a, why)->target == "sm_100a");
  CHECK(tcsim::cudrv::select_ptx(*parsed, tcsim::isa::Arch::Sm90a, why)->target == "sm_90a");
  // Without arch-specific PTX: the newest portable PTX not above the device.
  std::vector<uint8_t> p;
  add_entry(p, FatbinKind::Ptx, 80, false, ptx_for("sm_80"), Pack::Raw);
  add_entry(p, FatbinKind::Ptx, 90, false, ptx_for("sm_90"), Pack::Raw);
  add_entry(p, FatbinKind::Ptx, 100, false, ptx_for("sm_100"), Pack::Raw);
  const auto fb2 = wrap(p);
  const auto portable = tcsim::cudrv::parse_fatbin(fb2.data(), fb2.size(), err);
  CHECK(tcsim::cudrv::select_ptx(*portable, tcsim::isa::Arch::Sm100a, why)->target == "sm_100");
  CHECK(tcsim::cudrv::select_ptx(*portable, tcsim::isa::Arch::Sm90a, why)->target == "sm_90");
}

TEST_CASE("no usable PTX: the message names the -gencode that adds it") {
  std::vector<uint8_t> e;
  add_entry(e, FatbinKind::Elf, 100, true, "\x7f" "ELF", Pack::Raw);
  add_entry(e, FatbinKind::Elf, 100, true, "\x7f" "ELF", Pack::Raw);
  const auto fb = wrap(e);
  std::string err, why;
  const auto parsed = tcsim::cudrv::parse_fatbin(fb.data(), fb.size(), err);
  REQUIRE(parsed.has_value());
  CHECK(tcsim::cudrv::select_ptx(*parsed, tcsim::isa::Arch::Sm100a, why) == nullptr);
  CHECK(why == "the fat binary holds no PTX (SASS only: sm_100a); tcsim runs PTX: rebuild with -gencode "
               "arch=compute_100a,code=compute_100a (or -arch=sm_100a, which embeds PTX next to the SASS)");
  std::vector<uint8_t> h;
  add_entry(h, FatbinKind::Ptx, 90, true, ptx_for("sm_90a"), Pack::Raw);
  const auto fb2 = wrap(h);
  const auto hopper = tcsim::cudrv::parse_fatbin(fb2.data(), fb2.size(), err);
  CHECK(tcsim::cudrv::select_ptx(*hopper, tcsim::isa::Arch::Sm100a, why) == nullptr);
  CHECK(why.find("PTX targets sm_90a, none of which runs on sm_100a") != std::string::npos);
  CHECK(why.find("tcsim exec --arch sm_90a") != std::string::npos);
}

TEST_CASE("malformed fat binaries are refused with the reason, never read out of bounds") {
  std::vector<uint8_t> e;
  add_entry(e, FatbinKind::Ptx, 100, true, ptx_for("sm_100a"), Pack::Zstd);
  auto fb = wrap(e);
  std::string err;
  fb[0] ^= 1;
  CHECK_FALSE(tcsim::cudrv::parse_fatbin(fb.data(), fb.size(), err).has_value());
  CHECK(err.find("magic") != std::string::npos);
  fb[0] ^= 1;
  // Truncated: the header promises more than there is.
  CHECK_FALSE(tcsim::cudrv::parse_fatbin(fb.data(), fb.size() - 8, err).has_value());
  CHECK(err.find("do not fit") != std::string::npos);
  // Corrupt compressed data.
  auto bad = fb;
  bad[16 + 64 + 4] ^= 0xff;
  bad[16 + 64 + 5] ^= 0xff;
  CHECK_FALSE(tcsim::cudrv::parse_fatbin(bad.data(), bad.size(), err).has_value());
  CHECK(err.find("zstd") != std::string::npos);
  // An entry whose payload size overruns the fat binary.
  auto over = fb;
  const uint32_t huge = 1u << 30;
  std::memcpy(over.data() + 16 + 8, &huge, 4);
  CHECK_FALSE(tcsim::cudrv::parse_fatbin(over.data(), over.size(), err).has_value());
  CHECK(err.find("overruns") != std::string::npos);
}
