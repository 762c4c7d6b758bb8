// The machine table (models/machine) against its sources: the H200 row against the committed H200
// measurement (kernels/probes/results/h200-2026-12-01-machine/machine_shape.txt: device properties,
// the SM groups clusters were placed in, and 176 cudaOccupancyMaxActiveClusters answers), every
// row's provenance, and the shared-memory layout rules against hand-worked H200 values.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/machine/machine_config.h"
#include "models/machine/shared_memory.h"

using namespace tcsim;

namespace {

const char* kFields[] = {"num_sms", "num_gpcs", "gpc_sms", "max_threads_per_sm", "max_ctas_per_sm",
                         "max_warps_per_sm", "max_cluster_ctas_per_sm", "smem_per_sm", "max_smem_per_cta",
                         "default_max_dynamic_smem", "reserved_smem_per_cta", "reserved_smem_end",
                         "smem_alloc_granularity", "max_threads_per_cta", "max_block", "max_grid",
                         "max_cluster_ctas_portable", "max_cluster_ctas_nonportable", "clock_mhz"};

std::string machine_shape() {
  std::ifstream f(std::string(TCSIM_SOURCE_DIR) + "/kernels/probes/results/h200-2026-12-01-machine/machine_shape.txt");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

uint64_t field(const std::string& line, const std::string& key) {
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(line, m, std::regex(" " + key + "=(-?[0-9]+)")), key << " in " << line);
  return std::stoull(m[1]);
}

}  // namespace

TEST_CASE("every row has a source for every field, and 'assumed' is marked as such") {
  for (isa::Arch a : models::machine_archs()) {
    const auto src = models::field_sources(a);
    CHECK(src.size() == std::size(kFields));
    std::set<std::string> seen;
    for (const models::FieldSource& f : src) {
      seen.insert(f.field);
      CHECK(std::string(f.source).size() > 8);
      CHECK(f.assumed == (std::string(f.source).rfind("assumed", 0) == 0));
    }
    for (const char* n : kFields) CHECK_MESSAGE(seen.count(n), n << " has no source in the row of " << isa::arch_name(a));
    const models::MachineConfig& m = models::machine_config(a);
    CHECK(m.arch == a);
    uint32_t sms = 0;
    for (uint32_t s : m.gpcs()) {
      CHECK(s % 2 == 0);  // whole TPCs
      sms += s;
    }
    CHECK(sms == m.num_sms);
  }
  // sm_103a has its own row, every value of it assumed (no B300 measurement); sm_100f runs on the B200.
  CHECK(std::string(models::machine_config(isa::Arch::Sm103a).name) != models::machine_config(isa::Arch::Sm100a).name);
  for (const models::FieldSource& f : models::field_sources(isa::Arch::Sm103a)) CHECK(f.assumed);
  CHECK(&models::machine_config(isa::Arch::Sm100f) == &models::machine_config(isa::Arch::Sm100a));
}

TEST_CASE("the H200 row is what the H200 reported") {
  const std::string text = machine_shape();
  REQUIRE(!text.empty());
  const models::MachineConfig& m = models::machine_config(isa::Arch::Sm90a);
  std::smatch d;
  REQUIRE(std::regex_search(text, d, std::regex("DEVICE [^\n]*")));
  const std::string dev = d.str();
  CHECK(field(dev, "sms") == m.num_sms);
  CHECK(field(dev, "smem_per_sm") == m.smem_per_sm);
  CHECK(field(dev, "smem_optin") == m.max_smem_per_cta);
  CHECK(field(dev, "smem_per_block") == m.default_max_dynamic_smem);
  CHECK(field(dev, "reserved_smem_per_block") == m.reserved_smem_per_cta);
  CHECK(field(dev, "max_blocks_per_sm") == m.max_ctas_per_sm);
  CHECK(field(dev, "max_threads_per_sm") == m.max_threads_per_sm);
  // The GPCs: the groups of SMs clusters were ever placed in.
  std::vector<uint32_t> measured;
  const std::regex gpc("GPC [0-9]+ sms=([0-9]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), gpc); it != std::sregex_iterator(); ++it)
    measured.push_back(static_cast<uint32_t>(std::stoul((*it)[1])));
  std::vector<uint32_t> table(m.gpcs().begin(), m.gpcs().end());
  std::sort(measured.begin(), measured.end());
  std::sort(table.begin(), table.end());
  CHECK(measured == table);
  // Every 2-CTA cluster sat on a TPC (SMs 2t, 2t + 1).
  std::smatch t;
  REQUIRE(std::regex_search(text, t, std::regex("TPC pairs=([0-9]+) of ([0-9]+)")));
  CHECK(t[1] == t[2]);
}

TEST_CASE("max_active_clusters reproduces every cudaOccupancyMaxActiveClusters answer of the H200") {
  // OCC block=B dyn=D cluster=K blocks_per_sm=N max_active_clusters=M, for the probe kernel `place`
  // (no static shared memory): 11 configurations x cluster sizes 1..16.
  const std::string text = machine_shape();
  const models::MachineConfig& m = models::machine_config(isa::Arch::Sm90a);
  const std::regex occ("OCC block=([0-9]+) dyn=([0-9]+) cluster=([0-9]+) blocks_per_sm=([0-9]+) max_active_clusters=([0-9]+)");
  int n = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), occ); it != std::sregex_iterator(); ++it, ++n) {
    const auto& r = *it;
    const uint32_t block = std::stoul(r[1]), dyn = std::stoul(r[2]), k = std::stoul(r[3]);
    const uint32_t smem = models::smem_layout(m, 0, 1, dyn).cta_bytes();
    INFO("block " << block << " dyn " << dyn << " cluster " << k);
    CHECK(models::ctas_per_sm(m, block, smem) == std::stoul(r[4]));
    CHECK(models::max_active_clusters(m, block, smem, k) == std::stoul(r[5]));
  }
  CHECK(n == 176);
  // The WAVE lines: a launch of one cluster more than fits ran exactly max_active_clusters(k) * k
  // CTAs in its first wave.
  const std::regex wave("WAVE cluster=([0-9]+) grid=[0-9]+ first_wave=([0-9]+) max_active_clusters=([0-9]+)");
  int w = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), wave); it != std::sregex_iterator(); ++it, ++w)
    CHECK(std::stoul((*it)[2]) == std::stoul((*it)[1]) * std::stoul((*it)[3]));
  CHECK(w == 16);
}

TEST_CASE("B200: 148 SMs in 74 TPCs hold 74 two-CTA clusters at once") {
  const models::MachineConfig& m = models::machine_config(isa::Arch::Sm100a);
  const uint32_t one_per_sm = models::smem_layout(m, 0, 16, 200 * 1024).cta_bytes();
  CHECK(models::ctas_per_sm(m, 128, one_per_sm) == 1);
  CHECK(models::max_active_clusters(m, 128, one_per_sm, 2) == 74);
  CHECK(models::max_active_clusters(m, 128, one_per_sm, 1) == 148);
}

TEST_CASE("shared-memory layout and address encoding (the H200's numbers)") {
  const models::MachineConfig& m = models::machine_config(isa::Arch::Sm90a);
  // smem_addr.cu: static variables end at 0xe0 after the reserve; the module's largest extern
  // alignment is 1024 (smem_addr_a1024's array), so ptxas reports 1024 static bytes; the 16-aligned
  // dynamic array sits right after the variables at 0x4e0; 2000 dynamic bytes:
  // %total_smem_size = roundup(1024 + 2000, 128) = 0xc00, %aggr_smem_size = 0x400 + 1024 + 2000 = 0xfd0
  // (smem_addr_c2 golden o[7], o[13], o[14]).
  models::SmemLayout l = models::smem_layout(m, 0xe0, 1024, 2000);
  CHECK(l.dynamic_offset(16) == 0x4e0);
  CHECK(l.dynamic_offset(1024) == 0x800);
  CHECK(l.total_smem_size() == 0xc00);
  CHECK(l.aggr_smem_size() == 0xfd0);
  CHECK(l.limit() == 0x1000);
  // smem_sregs_s1000_d420: 1000 static bytes, extern alignment 16 -> 1008; dyn at 0x7f0,
  // total roundup(1428, 128) = 0x600, aggr 0x400 + 1008 + 420 = 0x994.
  l = models::smem_layout(m, 1000, 16, 420);
  CHECK(l.static_bytes == 1008);
  CHECK(l.dynamic_offset(16) == 0x7f0);
  CHECK(l.total_smem_size() == 0x600);
  CHECK(l.aggr_smem_size() == 0x994);
  // Addresses: rank in bits 24..31; mapa replaces the field (smem_probe_m5: rank 255 -> 0xff000400).
  CHECK(models::smem_address(3, 0x4e0) == 0x30004e0u);
  CHECK(models::smem_rank(0x30004e0u) == 3);
  CHECK(models::smem_offset(0x30004e0u) == 0x4e0);
  CHECK(models::smem_mapa(0x10004e0u, 0) == 0x4e0u);
  CHECK(models::smem_mapa(0x400u, 255) == 0xff000400u);
  CHECK((0x30004e0u & ~(1u << 24)) == models::smem_address(2, 0x4e0));  // the even CTA of the pair
}
