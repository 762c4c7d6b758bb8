// CUDA fat binaries: the containers nvcc embeds in a program (section .nv_fatbin) and that
// cuModuleLoadData / cuLibraryLoadData accept. A fat binary holds one entry per (kind, arch): SASS
// (an ELF cubin for one sm_XY), PTX text for one compute_XY, or LTO IR; each may be compressed.
// tcsim runs PTX, so this finds the PTX entry a device of a given architecture would JIT.
//
// Layout (no NVIDIA specification exists: the wrapper is declared by the CUDA toolkit's
// fatbinary_section.h; the header and entries are as the ZLUDA project documents them
// (docs/cuda_driver.md "Fat binaries"), checked against nvcc 13.0 output by
// tests/cuda_driver/fatbin_test.cc):
//
//   wrapper (__fatBinC_Wrapper_t, fatbinary_section.h): u32 magic 0x466243B1, u32 version (1, 2),
//            u64 pointer to the fat binary, u64 pointer (prelinked fat binaries / file name)
//   header   u32 magic 0xBA55ED50, u16 version 1, u16 header size, u64 size of the entries
//   entry    u16 kind (1 PTX, 2 ELF, 4 LTO IR), u16 version, u32 header size, u32 payload size,
//            u32 -, u32 compressed size @16, u32 - @20, u32 - @24, u32 sm version @28 (XY),
//            u64 flags @40 (0x2000 LZ4 block, 0x8000 zstd frame, 0x100000 arch-specific target),
//            u64 uncompressed size @56;
//            the payload follows the entry header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "isa/arch.h"

namespace tcsim::cudrv {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
inline constexpr uint32_t kFatbinWrapperMagic = 0x466243B1u;

enum class FatbinKind : uint16_t { Ptx = 1, Elf = 2, LtoIr = 4 };

struct FatbinEntry {
  FatbinKind kind = FatbinKind::Ptx;
  uint32_t sm = 0;          // XY of sm_XY / compute_XY
  uint64_t flags = 0;
  std::string target;       // PTX: its .target (e.g. "sm_100a"); ELF: "sm_XY"
  std::string payload;      // decompressed (PTX: the text)
};

struct Fatbin {
  std::vector<FatbinEntry> entries;
  uint64_t bytes = 0;       // header + entries: the extent of this fat binary in memory
};

// Parses one fat binary starting at `data` (`avail` bytes readable, or SIZE_MAX when the caller
// only knows the start: the header then bounds the read). nullopt + `error` for a malformed one.
std::optional<Fatbin> parse_fatbin(const uint8_t* data, uint64_t avail, std::string& error);

// The PTX a device of `arch` runs from these entries (docs/cuda_driver.md "Which PTX"): a PTX entry
// whose .target is `arch` exactly; for sm_100a also sm_100f; else the newest plain (portable)
// sm_XY target not above the device's. nullptr with `why` naming the -gencode that would add it.
const FatbinEntry* select_ptx(const Fatbin& fb, isa::Arch arch, std::string& why);

// The compute capability (XY) of an arch: sm_90a 90, sm_100a/f 100, sm_103a 103.
uint32_t arch_sm(isa::Arch arch);

}  // namespace tcsim::cudrv
