// A run's output directory (LAUNCH_SPEC.md "Output directory"): NAME.npy per output and
// manifest.json, written by `tcsim run --out` and `tcsim-hw run --out`, read by `tcsim diff` and
// `tcsim run --golden`.
//
// manifest.json (keys in this order):
//   {"version": 1, "tool": "tcsim"|"tcsim-hw", "arch": "sm_100a", "spec": "path/to/spec.json"
//    (manifest_spec_path: repository-relative when the spec is inside a repository),
//    "kernel": "<resolved .entry name>",
//    ...run fields: tcsim: "cycles", "seed", "approx_ops" (the .approx instructions executed: their
//       results are not bit-exact by design), "findings" (docs/findings.md); tcsim-hw: "gpu", "compute_capability",
//       "driver_version", "date"...,
//    "outputs": {"C": {"dtype": "f32", "shape": [1024, 1024], "file": "C.npy"}, ...}}
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/spec/spec_dtype.h"

namespace tcsim::spec {

struct OutputArray {
  std::string name;
  SpecDType dtype = SpecDType::U8;  // logical type (bf16 is stored as <u2, fp8 as |u1, ...)
  std::vector<uint64_t> shape;
  std::vector<std::byte> data;      // count * elem_bytes(dtype) bytes, little-endian

  uint64_t count() const;
};

// What a run's kernel printed with printf (vprintf): tcsim in its deterministic order (CTA,
// warp, lane, call), tcsim-hw as the GPU's driver wrote it (docs/printf.md).
struct PrintfCapture {
  std::string text;
  std::optional<uint64_t> records;  // printf calls whose output is in `text` (tcsim)
  std::optional<uint64_t> dropped;  // printf calls dropped because the FIFO was full (tcsim)
  std::optional<uint64_t> fifo_bytes;  // the FIFO's capacity in effect (tcsim; tcsim-hw: the driver's)
};

struct RunInfo {
  std::string tool;  // "tcsim" or "tcsim-hw"
  std::string arch;
  std::string spec;  // the spec's path as given (the manifest records manifest_spec_path(spec))
  std::string kernel;
  std::optional<uint64_t> cycles;  // tcsim
  std::optional<uint64_t> seed;    // tcsim
  std::vector<std::string> approx_ops;
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();  // tcsim: LaunchOutcome::findings
  std::vector<std::pair<std::string, std::string>> extra;  // tool-specific (gpu, driver, date...)
  std::optional<PrintfCapture> printf_output;              // absent: the tool did not capture it
};

struct OutputDir {
  std::string dir;
  bool has_manifest = false;
  RunInfo run;  // run.printf_output: from the manifest's "printf" (or a bare printf.txt)
  std::vector<OutputArray> outputs;  // manifest order; without a manifest, *.npy sorted by name
};

// The spec's path as a manifest records it, so that committed goldens name their spec the same way
// on every machine: relative to the root of the repository the spec lies in (the nearest directory
// above it holding .git, or the source tree this tool was built from), else as given.
std::string manifest_spec_path(const std::string& spec);

// Creates `dir` if needed; writes NAME.npy for each output and manifest.json. SpecError on I/O.
void write_output_dir(const std::string& dir, const RunInfo& run, const std::vector<OutputArray>& outputs);

// Lines of printf text: the '\n's, plus a last line without one.
uint64_t count_lines(std::string_view text);

// Reads a directory written by write_output_dir. Without manifest.json, every *.npy file is an
// output typed by its storage descr ('<f4' f32, '<u2' u16, '|u1' u8, ...). SpecError (bad input:
// exit 2) for a missing directory, a manifest naming a missing file, or a file that disagrees with
// the manifest's dtype/shape.
OutputDir read_output_dir(const std::string& dir);

}  // namespace tcsim::spec
