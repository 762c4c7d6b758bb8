// The hardware runner's reading of .entry parameter lists (tools/spec/ptx_params.h) against the
// simulator's PTX parser (isa/ptx, through sim::Device::kernel_params) on every committed PTX file of
// kernels/launch and kernels/tma: two independent readers of the same declarations must agree on
// every name, size and alignment.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/api.h"
#include "tools/spec/ptx_params.h"

using namespace tcsim;

TEST_CASE("ptx_params: the declaration forms nvcc writes") {
  const char* ptx = R"(
.version 9.0
.target sm_90a
// .entry commented(.param .u32 x)
.visible .entry k(
	.param .align 64 .b8 k_param_0[256], /* a struct */
	.param .u64 .ptr .align 1 k_param_1,
	.param .u64 .ptr .global .align 16 k_param_2,
	.param .u16 k_param_3,
	.param .align 4 .b8 k_param_4[8]
)
{ ret; }
.entry noparams
{ ret; }
)";
  const auto p = spec::ptx_entry_params(ptx, "k");
  REQUIRE(p);
  REQUIRE(p->size() == 5);
  CHECK((*p)[0].name == "k_param_0");
  CHECK((*p)[0].size == 256);
  CHECK((*p)[0].align == 64);
  CHECK((*p)[1].size == 8);
  CHECK((*p)[1].align == 8);  // .align after .ptr is the pointee's
  CHECK((*p)[2].align == 8);
  CHECK((*p)[3].size == 2);
  CHECK((*p)[3].align == 2);
  CHECK((*p)[4].align == 4);
  CHECK(spec::ptx_entry_params(ptx, "noparams")->empty());
  CHECK(!spec::ptx_entry_params(ptx, "commented"));
  CHECK(!spec::ptx_entry_params(ptx, "missing"));
  CHECK(!spec::ptx_entry_params(".entry bad(.param .weird x)\n{ret;}", "bad"));
}

TEST_CASE("ptx_params: agrees with the simulator's parser on every committed kernel") {
  size_t entries = 0;
  for (const char* dir : {"kernels/launch", "kernels/tma"}) {
    for (const auto& e : std::filesystem::directory_iterator(std::string(TCSIM_SOURCE_DIR) + "/" + dir)) {
      const std::string path = e.path().string();
      if (e.path().extension() != ".ptx") continue;
      const bool sm90 = path.find("sm_90a") != std::string::npos;
      std::ifstream f(path);
      std::stringstream ss;
      ss << f.rdbuf();
      sim::Device dev(sm90 ? isa::Arch::Sm90a : isa::Arch::Sm100a);
      const sim::Module& m = dev.load_ptx(ss.str(), path);
      for (const std::string& k : dev.kernel_names(m)) {
        CAPTURE(path);
        CAPTURE(k);
        const auto want = dev.kernel_params(m, k);
        const auto got = spec::ptx_entry_params(ss.str(), k);
        REQUIRE(got);
        REQUIRE(got->size() == want.size());
        for (size_t i = 0; i < want.size(); ++i) {
          CHECK((*got)[i].name == want[i].name);
          CHECK((*got)[i].size == want[i].size);
          CHECK((*got)[i].align == want[i].align);
        }
        ++entries;
      }
    }
  }
  CHECK(entries > 20);
}
