// ubench: the H200 microbenchmarks behind models/timing/h200.txt (kernels/ubench/README.md).
//   ubench [GROUP...]     GROUP: launch pipes smem memory sync tensor tma cold gaps tma_queue outliers rec3 (default: all)
// Prints `# ` header lines (device, clocks) and one CSV row per figure (ubench.cuh).
#include <cstring>
#include <ctime>

#include "kernels/ubench/ubench.cuh"

int main(int argc, char** argv) {
  cudaDeviceProp p;
  UB_CHECK(cudaGetDeviceProperties(&p, 0));
  int clock_khz = 0, mem_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
  const std::time_t t = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  std::printf("# ubench %s on %s (cc %d.%d, %d SMs, L2 %d B, max SM clock %d kHz, memory clock %d kHz)\n", date, p.name,
              p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, clock_khz, mem_khz);
  std::printf("group,name,value,unit,detail\n");
  struct G {
    const char* name;
    void (*fn)();
  } groups[] = {{"launch", ub::run_launch}, {"pipes", ub::run_pipes}, {"smem", ub::run_smem},
                {"memory", ub::run_memory}, {"sync", ub::run_sync},   {"tensor", ub::run_tensor},
                {"tma", ub::run_tma},       {"cold", ub::run_cold},     {"gaps", ub::run_gaps},
                {"tma_queue", ub::run_tma_queue}, {"outliers", ub::run_outliers}, {"rec3", ub::run_rec3}};
  for (const G& g : groups) {
    bool want = argc < 2;
    for (int i = 1; i < argc; ++i) want = want || std::strcmp(argv[i], g.name) == 0;
    if (!want) continue;
    std::printf("# group %s\n", g.name);
    std::fflush(stdout);
    g.fn();
  }
  return 0;
}
