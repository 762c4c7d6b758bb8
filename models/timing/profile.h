// A GPU's timing parameters as data (DESIGN.md "Data, not code, for the machine's numbers"): one
// profile file per GPU, models/timing/<name>.txt, one parameter per line with its unit, its source
// and its confidence; the keys and units are the rows of params.def. The files are compiled into
// the library (builtin()) and can be replaced at run time by a file of the same form
// (`tcsim run --timing-profile FILE`).
//
// Line syntax (a line starting with '#' is a comment; blank lines are ignored):
//   key = value unit ; source: where the number comes from ; confidence: measured|published|vendor|derived|assumed
//   (the source may contain ';' and '#'; the confidence is the text after the last '; confidence:')
//   profile: NAME          the profile's name (first non-comment line)
//   gpu: TEXT              what it describes
// A file is rejected, naming the file, the line and the key, when a key is unknown, missing,
// given twice, has another unit, a value that is not a finite number >= 0, or no source or
// confidence.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/arch.h"
#include "isa/diag.h"

namespace tcsim::models::timing {

struct ParamInfo {
  std::string_view key, unit, description;
};
// Every parameter, in params.def order.
std::span<const ParamInfo> params();

struct Profile {
  std::string name;  // "h200"
  std::string gpu;   // "NVIDIA H200 SXM (GH100), 132 SMs"
#define TIMING_PARAM(member, key, unit, what) double member = 0;
#include "models/timing/params.def"
#undef TIMING_PARAM
  struct Meta {
    std::string source, confidence;
    uint32_t line = 0;
  };
  std::vector<Meta> meta;  // per parameter, params.def order

  // The value of `key` (nullptr when unknown): for reports and tests.
  const double* find(std::string_view key) const;
};

// Parses a profile file; `file` names it in errors ("h200.txt:12: ...").
isa::Expected<Profile> parse_profile(std::string_view text, std::string_view file);

// The profiles compiled in: "b200", "h200", "h100".
std::vector<std::string> builtin_names();
std::string_view builtin_text(std::string_view name);  // empty when unknown
// Parsed once; throws std::runtime_error with the parse error (a build with a bad file fails its
// tests) or for an unknown name.
const Profile& builtin(std::string_view name);
// The profile of the machine tcsim models for `arch`: sm_90a -> h200, sm_100a/sm_100 -> b200.
const Profile& for_arch(isa::Arch arch);

}  // namespace tcsim::models::timing
