// tcsim's cuTensorMapEncodeTiled rules for sm_90a against the H200's driver, map by map: the 60 maps of
// kernels/tma/facts/tensor_map_edges.json went through cuTensorMapEncodeTiled on the H200 (driver
// 580.159.04, 2026-11-30; `tcsim-hw check-tensor-map`, raw output committed as
// kernels/tma/facts/h200/tensor_map_edges.txt). Each driver verdict (ACCEPT / REJECT) must be tcsim's.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "tools/spec/launch_spec.h"
#include "tools/spec/tensor_map_encode.h"

using namespace tcsim;

TEST_CASE("tensor map rules (sm_90a) agree with the H200's driver on every edge case") {
  const std::string dir = TCSIM_SOURCE_DIR "/kernels/tma/facts/";
  const spec::LaunchSpec s = spec::load_spec(dir + "tensor_map_edges.json");
  std::ifstream in(dir + "h200/tensor_map_edges.txt");
  REQUIRE(in.good());
  // "e01_addr_8B: REJECT CUDA_ERROR_INVALID_VALUE ... [... address 0x7f0d17e00008]"
  const std::regex line(R"(^(e\d\d_\w+): (ACCEPT|REJECT)\b.*address (0x[0-9a-f]+)\]$)");
  std::map<std::string, std::pair<bool, uint64_t>> driver;
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) driver[m[1]] = {m[2] == "ACCEPT", std::stoull(m[3], nullptr, 16)};
  }
  REQUIRE(driver.size() == 60);
  int agree = 0;
  for (const auto& t : s.tensor_maps) {
    REQUIRE_MESSAGE(driver.count(t.name), t.name);
    // Named copies, not a structured binding: CHECK_MESSAGE's lambda cannot name one in clang 14.
    const bool accept = driver[t.name].first;
    const auto address = driver[t.name].second;
    const std::vector<std::string> v = spec::tensor_map_violations(t, address, isa::Arch::Sm90a);
    CHECK_MESSAGE(v.empty() == accept, t.name, ": driver ", accept ? "ACCEPT" : "REJECT", ", tcsim ",
                  v.empty() ? std::string("ACCEPT") : "REJECT: " + v.front());
    agree += v.empty() == accept;
  }
  CHECK(agree == 60);
}
