// models/timing: every compiled-in profile parses, and the parser rejects every malformed file with
// the file, line and key.
#include <doctest/doctest.h>

#include <string>

#include "models/timing/profile.h"

using namespace tcsim::models::timing;

namespace {

// A complete, valid profile text built from params.def (every key, value 1, its unit).
std::string full_text(const std::string& skip = "", const std::string& extra = "") {
  std::string t = "profile: test\ngpu: a test GPU\n";
  for (const ParamInfo& p : params()) {
    if (std::string(p.key) == skip) continue;
    t += std::string(p.key) + " = 1 " + std::string(p.unit) + " ; source: the test ; confidence: assumed\n";
  }
  return t + extra;
}

std::string error_of(const std::string& text) {
  auto p = parse_profile(text, "t.txt");
  return p ? std::string() : p.error().message;
}

}  // namespace

TEST_CASE("every built-in timing profile loads, with a source and confidence for every key") {
  const auto names = builtin_names();
  CHECK(names.size() >= 3);
  for (const std::string& n : names) {
    CAPTURE(n);
    const Profile& p = builtin(n);
    CHECK(p.name == n);
    CHECK(!p.gpu.empty());
    REQUIRE(p.meta.size() == params().size());
    for (const auto& m : p.meta) {
      CHECK(!m.source.empty());
      CHECK(!m.confidence.empty());
    }
  }
  CHECK(for_arch(tcsim::isa::Arch::Sm90a).name == "h200");
  CHECK(for_arch(tcsim::isa::Arch::Sm100a).name == "b200");
  // Values the model depends on, as measured / published (kernels/ubench/README.md).
  CHECK(builtin("h200").smem_bytes_per_clk == 128);
  CHECK(builtin("h200").wgmma_cycles_per_n == 0.5);
  // The published 136 / 104 + N/2 less the 12 cycles of the measuring sequence
  // (tests/cli/timing_probe_test.cc reads the published numbers back).
  CHECK(builtin("b200").tc_ss1_m128_latency == 124);
  CHECK(*builtin("b200").find("tcgen05.ts_cta1.latency") == 92);
  CHECK(builtin("h200").find("no.such.key") == nullptr);
}

TEST_CASE("a valid profile parses; malformed ones are rejected naming line and key") {
  REQUIRE(error_of(full_text()) == "");
  CHECK(parse_profile(full_text(), "t.txt")->fp32_latency == 1);

  const std::string first = std::string(params()[0].key);
  CHECK(error_of(full_text(first)).find("missing keys: " + first) != std::string::npos);
  CHECK(error_of(full_text("", "pipe.nonsense.latency = 3 cycles ; source: x ; confidence: assumed\n"))
            .find("unknown key 'pipe.nonsense.latency'") != std::string::npos);
  const std::string dup = error_of(full_text("", "pipe.fp32.latency = 3 cycles ; source: x ; confidence: assumed\n"));
  CHECK(dup.find("'pipe.fp32.latency' is given twice") != std::string::npos);
  CHECK(dup.rfind("t.txt:", 0) == 0);

  auto replace = [&](const std::string& key, const std::string& line) {
    std::string t = full_text(key);
    return error_of(t + line + "\n");
  };
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = 4 ns ; source: x ; confidence: assumed")
            .find("'pipe.fp32.latency' is in cycles, not 'ns'") != std::string::npos);
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = fast cycles ; source: x ; confidence: assumed")
            .find("is not a finite number") != std::string::npos);
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = -1 cycles ; source: x ; confidence: assumed")
            .find("is not a finite number") != std::string::npos);
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = 4 cycles ; confidence: assumed").find("has no 'source:'") !=
        std::string::npos);
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = 4 cycles ; source: x ; confidence: likely")
            .find("confidence 'likely'") != std::string::npos);
  CHECK(replace("pipe.fp32.latency", "pipe.fp32.latency = 4 cycles ; source: x ; confidence: assumed ; note: y")
            .find("confidence 'assumed ; note: y'") != std::string::npos);
  CHECK(replace("pipe.fp32.per_clk", "pipe.fp32.per_clk = 0 per_clk ; source: x ; confidence: assumed")
            .find("'pipe.fp32.per_clk' must be > 0") != std::string::npos);
  CHECK(error_of("gpu: x\n" + full_text().substr(full_text().find('\n') + 1)).find("no 'profile: NAME'") !=
        std::string::npos);
  CHECK(replace("pipe.fp32.latency", "this line has no equals sign").find("expected 'key = value unit") !=
        std::string::npos);
}
