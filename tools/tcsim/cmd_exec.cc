// tcsim exec [OPTIONS] -- PROGRAM [ARGS...]
// tcsim capture [OPTIONS] [--out DIR] [--driver LIBCUDA] -- PROGRAM [ARGS...]
//
// exec runs an unmodified CUDA program on the simulator: its CUDA runtime (static or shared cudart)
// or its own driver-API code loads libtcsim-cuda as libcuda.so.1 (docs/cuda_driver.md). capture runs
// it through the capture layer (tools/capture), which records every launch as a launch spec with
// its input buffers (.npy) and its outputs, forwarding each call to libtcsim-cuda or, with
// --driver, to a real driver on a GPU machine. exec replaces this process by the program, so the
// exit status is the program's own; capture waits for it, then says how many launches it captured
// (exit 3 when one could not be: capture.json says why).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/arch.h"
#include "tools/tcsim/command.h"

namespace tcsim::cli {
namespace {

namespace fs = std::filesystem;

struct ExecOptions {
  std::string arch;          // TCSIM_ARCH
  std::string threads;       // TCSIM_THREADS
  std::string seed;          // TCSIM_SEED
  std::string max_steps;     // TCSIM_MAX_STEPS
  std::string dump_ptx;      // TCSIM_DUMP_PTX
  std::string out;           // capture: TCSIM_CAPTURE_DIR
  std::string driver;        // capture: the driver to forward to
  bool report = false, trace = false;
  std::vector<std::string> argv;
};

bool is_uint(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

ExecOptions parse(Args args, bool capture) {
  ExecOptions o;
  size_t i = 0;
  auto value = [&](std::string_view name) -> std::string {
    if (i + 1 >= args.size()) throw UsageError(fmt::format("{} needs a value", name));
    return std::string(args[++i]);
  };
  for (; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--arch") {
      o.arch = value(a);
      const auto p = isa::parse_arch(o.arch);
      if (!p || *p == isa::Arch::Sm100f)
        throw UsageError(fmt::format("--arch {}: not a device tcsim models (sm_100a: a B200, sm_90a: an H200)", o.arch));
    } else if (a == "--threads") {
      o.threads = value(a);
      if (!is_uint(o.threads)) throw UsageError("--threads: not a non-negative integer");
    } else if (a == "--seed") {
      o.seed = value(a);
      if (!is_uint(o.seed)) throw UsageError("--seed: not a non-negative integer");
    } else if (a == "--max-steps") {
      o.max_steps = value(a);
      if (!is_uint(o.max_steps)) throw UsageError("--max-steps: not a non-negative integer");
    } else if (a == "--dump-ptx") {
      o.dump_ptx = value(a);
    } else if (a == "--report") {
      o.report = true;
    } else if (a == "--trace") {
      o.trace = true;
    } else if (capture && a == "--out") {
      o.out = value(a);
    } else if (capture && a == "--driver") {
      o.driver = value(a);
    } else if (!a.starts_with("-")) {
      break;  // the program (the `--` is optional)
    } else {
      throw UsageError(fmt::format("unknown option '{}'", a));
    }
  }
  for (; i < args.size(); ++i) o.argv.emplace_back(args[i]);
  if (o.argv.empty())
    throw UsageError(capture ? "usage: tcsim capture [--out DIR] [--driver LIBCUDA] [--arch sm_100a|sm_90a] ... -- PROGRAM [ARGS...]"
                             : "usage: tcsim exec [--arch sm_100a|sm_90a] [--threads N] [--seed N] [--report] ... -- PROGRAM [ARGS...]");
  return o;
}

// The folder of this executable (/proc/self/exe): the build tree puts bin/tcsim next to lib/.
fs::path self_dir() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : p.parent_path();
}

fs::path lib_dir(const char* env_name, const char* sub) {
  if (const char* e = std::getenv(env_name); e && *e) return e;
  return self_dir().parent_path() / "lib" / sub;
}

void set(const char* name, const std::string& v) {
  if (!v.empty()) ::setenv(name, v.c_str(), 1);
}

void set_env(const ExecOptions& o, const fs::path& libcuda_dir) {
  std::string ld = libcuda_dir.string();
#ifdef TCSIM_CUDA_LIB64
  // A program built with -cudart shared needs the toolkit's libcudart.so.13 (it holds no libcuda).
  if (fs::exists(TCSIM_CUDA_LIB64)) ld += std::string(":") + TCSIM_CUDA_LIB64;
#endif
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) ld += std::string(":") + old;
  ::setenv("LD_LIBRARY_PATH", ld.c_str(), 1);
  set("TCSIM_ARCH", o.arch);
  set("TCSIM_THREADS", o.threads);
  set("TCSIM_SEED", o.seed);
  set("TCSIM_MAX_STEPS", o.max_steps);
  set("TCSIM_DUMP_PTX", o.dump_ptx);
  if (o.report) ::setenv("TCSIM_CUDA_REPORT", "1", 1);
  if (o.trace) ::setenv("TCSIM_CUDA_TRACE", "1", 1);
}

[[noreturn]] void exec_program(const ExecOptions& o) {
  std::vector<char*> argv;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  throw UsageError(fmt::format("cannot run {}: {}", o.argv[0], std::strerror(errno)));
}

fs::path require_lib(const char* env_name, const char* sub, const char* what) {
  const fs::path d = lib_dir(env_name, sub);
  if (!fs::exists(d / "libcuda.so.1"))
    throw UsageError(fmt::format("{} not found at {} (it is built only where cuda.h exists; or set {})", what,
                                 (d / "libcuda.so.1").string(), env_name));
  return d;
}

int run_exec(Args args) {
  const ExecOptions o = parse(args, false);
  set_env(o, require_lib("TCSIM_CUDA_LIB_DIR", "tcsim-cuda", "libtcsim-cuda"));
  exec_program(o);
}

int run_capture(Args args) {
  ExecOptions o = parse(args, true);
  const fs::path cap = require_lib("TCSIM_CAPTURE_LIB_DIR", "tcsim-capture", "the capture layer");
  std::string next = o.driver;
  if (next.empty()) next = (require_lib("TCSIM_CUDA_LIB_DIR", "tcsim-cuda", "libtcsim-cuda") / "libcuda.so.1").string();
  else if (!fs::exists(next)) throw UsageError(fmt::format("--driver {}: no such file", next));
  ::setenv("TCSIM_CAPTURE_NEXT", fs::absolute(next).string().c_str(), 1);
  const std::string out = o.out.empty() ? std::string("capture") : o.out;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) throw UsageError(fmt::format("--out {}: {}", out, ec.message()));
  ::setenv("TCSIM_CAPTURE_DIR", fs::absolute(out).string().c_str(), 1);
  fs::remove(fs::path(out) / "capture.json", ec);
  set_env(o, cap);
  // The program runs as a child: afterwards the capture is summarised, and a launch that could not
  // be captured makes the exit status non-zero (3) even when the program itself succeeded.
  const pid_t pid = ::fork();
  if (pid < 0) throw UsageError(fmt::format("cannot fork: {}", std::strerror(errno)));
  if (pid == 0) {
    try {
      exec_program(o);
    } catch (const std::exception& e) {
      fmt::print(stderr, "tcsim capture: error: {}\n", e.what());
      std::_Exit(127);
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int prog_rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  std::ifstream f(fs::path(out) / "capture.json");
  if (!f) {
    fmt::print(stderr, "tcsim capture: the program made no CUDA launch through the driver ({} has no capture.json)\n", out);
    return prog_rc ? prog_rc : 3;
  }
  const auto j = nlohmann::json::parse(f, nullptr, false);
  size_t total = 0, captured = 0;
  if (j.is_object() && j.contains("launches"))
    for (const auto& l : j["launches"]) {
      ++total;
      if (l.value("captured", false)) ++captured;
    }
  fmt::print(stderr, "tcsim capture: {} of {} launches captured into {}\n", captured, total, out);
  if (prog_rc) return prog_rc;
  return captured == total ? 0 : 3;
}

}  // namespace

TCSIM_COMMAND(exec, "exec [--arch sm_100a|sm_90a] [--threads N] [--seed N] [--max-steps N] [--report] [--trace] "
                    "[--dump-ptx DIR] -- PROGRAM [ARGS...]   run an unmodified CUDA program on the simulator",
              run_exec);
TCSIM_COMMAND(capture, "capture [--out DIR] [--driver LIBCUDA] [exec options] -- PROGRAM [ARGS...]   record every "
                       "launch of a CUDA program as a launch spec with its inputs and outputs",
              run_capture);

}  // namespace tcsim::cli
