// The spec path a run's manifest records (tools/spec/output_dir.h manifest_spec_path): relative to
// the root of the repository the spec lies in, so committed goldens name their spec the same way
// on every machine; as given outside any repository.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/tools/test_util.h"
#include "tools/spec/output_dir.h"

using namespace tcsim::spec;
namespace fs = std::filesystem;

TEST_CASE("manifest spec path: repository-relative inside a repository, as given elsewhere") {
  test::TempDir t;
  // A repository (a directory holding .git, as a clone or a worktree's .git file) with a spec.
  const fs::path repo = fs::path(t.str()) / "repo";
  fs::create_directories(repo / ".git");
  fs::create_directories(repo / "kernels" / "tma");
  test::write_text((repo / "kernels" / "tma" / "a.json").string(), "{}");
  CHECK(manifest_spec_path((repo / "kernels" / "tma" / "a.json").string()) == "kernels/tma/a.json");
  // A worktree: .git is a file.
  const fs::path wt = fs::path(t.str()) / "wt";
  fs::create_directories(wt / "specs");
  test::write_text((wt / ".git").string(), "gitdir: /elsewhere\n");
  CHECK(manifest_spec_path((wt / "specs" / "b.json").string()) == "specs/b.json");
  // Dots in the given path do not matter.
  CHECK(manifest_spec_path((repo / "kernels" / ".." / "kernels" / "tma" / "a.json").string()) == "kernels/tma/a.json");
  // Outside any repository (and outside this source tree): as given.
  const fs::path loose = fs::path(t.str()) / "loose" / "c.json";
  fs::create_directories(loose.parent_path());
  CHECK(manifest_spec_path(loose.string()) == loose.string());
  // This source tree: relative to its root.
  CHECK(manifest_spec_path(std::string(TCSIM_SOURCE_DIR) + "/kernels/basic/int_arith.json") ==
        "kernels/basic/int_arith.json");
}

TEST_CASE("manifest spec path: write_output_dir records it") {
  test::TempDir t;
  const fs::path repo = fs::path(t.str()) / "repo";
  fs::create_directories(repo / ".git");
  RunInfo run;
  run.tool = "tcsim-hw";
  run.arch = "sm_90a";
  run.spec = (repo / "k.json").string();
  run.kernel = "k";
  write_output_dir(t / "out", run, {});
  std::ifstream f(t / "out/manifest.json");
  const nlohmann::json m = nlohmann::json::parse(f);
  CHECK(m["spec"] == "k.json");
  // Reading the directory back gives the recorded path.
  CHECK(read_output_dir(t / "out").run.spec == "k.json");
}
