// tcsim verify-case SPEC.json|DIR ... [--filter TEXT] [--list-failures N] [--quiet]
// Runs every launch spec that carries a `case` object (kernels/tcgen05/README.md "The case
// object": the single-instruction tcgen05.mma kernels) on the simulator and compares D with the
// reference the case defines, bit for bit:
//   exact  (integer inputs: every product and partial sum representable, so accumulation order and
//          rounding cannot matter): D[m][n] = sA*sB * sum_k A[m][k]*B[n][k] + C[m][n]*2^-s in exact
//          arithmetic (an Eigen double product of small integers; kind::i8 in 64-bit integers, then
//          wrapped modulo 2^32 or saturated), rows in masked_rows = C, B rows in zero_columns = 0;
//   random D = the models::mma sm_100a tcgen05 reference (DotEngine) applied to the same operand
//          codes, chained over the ksteps MMAs (scale-input-d on the first), with the same masks.
// The inputs are regenerated from the spec's init forms (deterministic), so the check needs the
// spec alone. Prints one line per failing spec (first mismatching element with both words) and a
// summary; exit 0 when every spec passed, 1 otherwise, 2 on bad input.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/dtype.h"
#include "isa/layouts/tmem_sparse_layout.h"
#include "isa/mma_kind.h"
#include "models/formats/format.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "tools/spec/buffer_init.h"
#include "tools/spec/launch_spec.h"
#include "tools/spec/runner.h"
#include "tools/spec/spec_error.h"
#include "tools/spec/input_file.h"
#include "tools/spec/json_limits.h"
#include "tools/tcsim/command.h"
#include "tools/tcsim/sim_backend.h"

namespace tcsim::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// One input buffer regenerated from its init form, read element by element as codes.
struct Operand {
  spec::SpecDType dtype = spec::SpecDType::U8;
  std::vector<std::byte> bytes;
  uint64_t count = 0;  // values (e2m1x2: two per byte)

  uint32_t code(uint64_t i) const {
    if (spec::info(dtype).kind == spec::ElemKind::Fp4x2) {
      const uint8_t b = static_cast<uint8_t>(bytes[i / 2]);
      return (i & 1) ? b >> 4 : b & 0xf;
    }
    const uint32_t size = spec::elem_bytes(dtype);
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + i * size, size);
    return static_cast<uint32_t>(v);
  }
  // The value of code(i) (integers as themselves; floats exactly).
  double value(uint64_t i) const {
    const uint32_t c = code(i);
    switch (spec::info(dtype).kind) {
      case spec::ElemKind::SignedInt: {
        const int bits = static_cast<int>(spec::elem_bytes(dtype)) * 8;
        return static_cast<double>(static_cast<int64_t>(uint64_t{c} << (64 - bits)) >> (64 - bits));
      }
      case spec::ElemKind::UnsignedInt: return static_cast<double>(c);
      default: break;
    }
    if (dtype == spec::SpecDType::F32) return std::bit_cast<float>(c);
    return models::to_double(spec::info(dtype).format, c);
  }
};

Operand regenerate(const spec::LaunchSpec& s, const std::string& name) {
  for (const spec::BufferSpec& b : s.buffers)
    if (b.name == name) {
      Operand o;
      o.dtype = b.dtype;
      spec::check_init(b.init, b.dtype, b.count());
      o.bytes = spec::make_init_bytes(b.init, b.dtype, b.count());
      o.count = spec::info(b.dtype).kind == spec::ElemKind::Fp4x2 ? 2 * b.count() : b.count();
      return o;
    }
  throw spec::spec_error(s.path, "buffers", fmt::format("the case needs a buffer named {}", name));
}

struct Case {
  isa::MmaKind kind = isa::MmaKind::F16;
  uint32_t m = 0, n = 0, k = 0, ksteps = 1;
  isa::DType a = isa::DType::F16, b = isa::DType::F16, d = isa::DType::F32;
  bool negate_a = false, negate_b = false, saturate = false, accumulate_c = false, exact = true;
  int scale = 0;
  int bug = 0;  // GEMM swizzle-bug demo (kernels/tcgen05/README.md): D must NOT equal the reference
  std::vector<uint32_t> masked_rows, zero_columns;
  // Block scaling (kernels/tcgen05/README.md "Block-scaled kernels"): buffers SFA [M][K/blk] and
  // SFB [N][K/blk] of scale codes; every K-block of `scale_block` elements of row m of A (column n
  // of B) is multiplied by its scale.
  models::mma::ScaleType scale_type = models::mma::ScaleType::None;
  uint32_t scale_block = 0;
  // Sparse A ("sparse": true): A is M x K/2 stored values, E [M][K/G] their metadata nibbles (one
  // byte each, PTX ISA §9.7.16.10.8), G the kind's group (isa/layouts/tmem_sparse_layout.h).
  bool sparse = false;
};

[[noreturn]] void bad_case(const std::string& path, const std::string& what) {
  throw spec::spec_error(path, "case", what);
}

// The GEMM specs (specs/gemm, gemm_bf16.json): `gemm` names the kernel; D = A * B^T over K, the
// kernel chaining K / K_mma MMAs in order into one accumulator (no C, no modifiers).
Case read_gemm_case(const std::string& path, const Json& j) {
  Case c;
  const std::string g = j["gemm"].get<std::string>();
  struct Row {
    const char* prefix;
    isa::MmaKind kind;
    isa::DType a, d;
    uint32_t kmma;
  };
  static const Row rows[] = {{"gemm_bf16_f32", isa::MmaKind::F16, isa::DType::BF16, isa::DType::F32, 16},
                             {"gemm_e4m3_f32", isa::MmaKind::F8F6F4, isa::DType::E4M3, isa::DType::F32, 32},
                             {"gemm_f16_f16", isa::MmaKind::F16, isa::DType::F16, isa::DType::F16, 16},
                             {"gemm_s8_s32", isa::MmaKind::I8, isa::DType::S8, isa::DType::S32, 32},
                             {"gemm_mxfp8_f32", isa::MmaKind::MXF8F6F4, isa::DType::E4M3, isa::DType::F32, 32},
                             {"gemm_nvfp4_f32", isa::MmaKind::MXF4NVF4, isa::DType::E2M1, isa::DType::F32, 64},
                             {"gemm_sp_bf16_f32", isa::MmaKind::F16, isa::DType::BF16, isa::DType::F32, 32},
                             {"gemm_ws_bf16_f32", isa::MmaKind::F16, isa::DType::BF16, isa::DType::F32, 16},
                             {"gemm_clc_bf16_f32", isa::MmaKind::F16, isa::DType::BF16, isa::DType::F32, 16}};
  const Row* r = nullptr;
  for (const Row& x : rows)
    if (g.rfind(x.prefix, 0) == 0) r = &x;
  if (!r) bad_case(path, fmt::format("gemm \"{}\" is not a kernel verify-case knows", g));
  c.kind = r->kind;
  c.a = c.b = r->a;
  c.d = r->d;
  c.m = j["M"].get<uint32_t>();
  c.n = j["N"].get<uint32_t>();
  c.k = j["K"].get<uint32_t>();
  if (c.k % r->kmma) bad_case(path, fmt::format("K {} is not a multiple of the MMA's K {}", c.k, r->kmma));
  c.ksteps = c.k / r->kmma;
  c.exact = j["exact"].get<bool>();
  c.bug = j.contains("bug") ? j["bug"].get<int>() : 0;
  // Block-scaled GEMMs (gemm_mx.cu): MXFP8 UE8M0 per 32 K, NVFP4 UE4M3 per 16 K.
  if (c.kind == isa::MmaKind::MXF8F6F4) c.scale_type = models::mma::ScaleType::UE8M0, c.scale_block = 32;
  if (c.kind == isa::MmaKind::MXF4NVF4) c.scale_type = models::mma::ScaleType::UE4M3, c.scale_block = 16;
  c.sparse = g.rfind("gemm_sp_", 0) == 0;  // gemm_sparse.cu: A stored K/2 per row, metadata E
  return c;
}

Case read_case(const std::string& path, const Json& j) {
  if (j.contains("gemm")) return read_gemm_case(path, j);
  Case c;
  auto need = [&](const char* key) -> const Json& {
    if (!j.contains(key)) bad_case(path, fmt::format("missing field \"{}\"", key));
    return j[key];
  };
  auto dtype = [&](const char* key) {
    const std::string t = need(key).get<std::string>();
    auto d = isa::parse_dtype(t);
    if (!d) bad_case(path, fmt::format("{} \"{}\" is not a type tcsim knows", key, t));
    return *d;
  };
  const std::string kind = need("kind").get<std::string>();
  auto k = isa::parse_kind(kind);
  if (!k) bad_case(path, fmt::format("kind \"{}\" is not an MMA kind", kind));
  c.kind = *k;
  c.m = need("M").get<uint32_t>();
  c.n = need("N").get<uint32_t>();
  c.k = need("K").get<uint32_t>();
  c.ksteps = need("ksteps").get<uint32_t>();
  if (c.ksteps == 0 || c.k % c.ksteps) bad_case(path, fmt::format("K {} is not a multiple of ksteps {}", c.k, c.ksteps));
  c.a = dtype("a_type");
  c.b = dtype("b_type");
  c.d = dtype("d_type");
  c.negate_a = need("negate_a").get<bool>();
  c.negate_b = need("negate_b").get<bool>();
  c.saturate = need("saturate").get<bool>();
  c.accumulate_c = need("accumulate_c").get<bool>();
  c.exact = need("exact").get<bool>();
  if (!need("scale_input_d").is_null()) c.scale = j["scale_input_d"].get<int>();
  if (!need("masked_rows").is_null()) c.masked_rows = j["masked_rows"].get<std::vector<uint32_t>>();
  if (!need("zero_columns").is_null()) c.zero_columns = j["zero_columns"].get<std::vector<uint32_t>>();
  if (j.contains("scale_type") && !j["scale_type"].is_null()) {
    const std::string st = j["scale_type"].get<std::string>();
    if (st != "ue8m0" && st != "ue4m3") bad_case(path, fmt::format("scale_type \"{}\" is not ue8m0 or ue4m3", st));
    c.scale_type = st == "ue8m0" ? models::mma::ScaleType::UE8M0 : models::mma::ScaleType::UE4M3;
    c.scale_block = need("scale_block").get<uint32_t>();
    if (c.scale_block == 0 || (c.k / c.ksteps) % c.scale_block)
      bad_case(path, fmt::format("scale_block {} does not divide the MMA's K {}", c.scale_block, c.k / c.ksteps));
  }
  if (j.contains("sparse")) c.sparse = j["sparse"].get<bool>();
  for (uint32_t r : c.masked_rows)
    if (r >= c.m) bad_case(path, fmt::format("masked row {} is outside M = {}", r, c.m));
  for (uint32_t x : c.zero_columns)
    if (x >= c.n) bad_case(path, fmt::format("zero column {} is outside N = {}", x, c.n));
  return c;
}

// The scale factors and metadata of a case (absent: unscaled, dense).
struct Extras {
  const Operand* sfa = nullptr;
  const Operand* sfb = nullptr;
  const Operand* e = nullptr;  // sparse metadata nibbles, one per byte
};

// Row i of the logical (dense) A as values: the stored A, or sparse A expanded by its metadata.
std::vector<double> logical_a_row(const Case& c, const Operand& A, const Extras& x, uint32_t i) {
  std::vector<double> row(c.k, 0.0);
  if (!c.sparse) {
    for (uint32_t kk = 0; kk < c.k; ++kk) row[kk] = A.value(uint64_t{i} * c.k + kk);
    return row;
  }
  const isa::SparseGroup g = isa::sparse_group(c.kind);
  const uint32_t groups = c.k / g.elems, stored = c.k / 2;
  for (uint32_t q = 0; q < groups; ++q) {
    uint32_t pos[4];
    isa::sparse_positions(c.kind, static_cast<uint8_t>(x.e->code(uint64_t{i} * groups + q) & 0xf), pos);
    for (uint32_t t = 0; t < g.kept; ++t) row[q * g.elems + pos[t]] += A.value(uint64_t{i} * stored + q * g.kept + t);
  }
  return row;
}

// D words of the exact reference (see the file comment).
std::vector<uint32_t> exact_reference(const Case& c, const Operand& A, const Operand& B, const Operand* C,
                                      const Extras& x) {
  using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Mat a(c.m, c.k), b(c.n, c.k);
  const uint32_t nblk = c.scale_block ? c.k / c.scale_block : 0;
  for (uint32_t i = 0; i < c.m; ++i) {
    const std::vector<double> row = logical_a_row(c, A, x, i);
    for (uint32_t kk = 0; kk < c.k; ++kk)
      a(i, kk) = row[kk] * (nblk ? x.sfa->value(uint64_t{i} * nblk + kk / c.scale_block) : 1.0);
  }
  for (uint32_t j = 0; j < c.n; ++j)
    for (uint32_t kk = 0; kk < c.k; ++kk)
      b(j, kk) = B.value(uint64_t{j} * c.k + kk) * (nblk ? x.sfb->value(uint64_t{j} * nblk + kk / c.scale_block) : 1.0);
  for (uint32_t j : c.zero_columns) b.row(j).setZero();
  const double sign = (c.negate_a ? -1.0 : 1.0) * (c.negate_b ? -1.0 : 1.0);
  const Mat p = sign * (a * b.transpose());
  std::vector<uint32_t> d(size_t{c.m} * c.n);
  for (uint32_t i = 0; i < c.m; ++i)
    for (uint32_t j = 0; j < c.n; ++j) {
      const size_t e = size_t{i} * c.n + j;
      if (c.d == isa::DType::S32) {
        int64_t v = static_cast<int64_t>(p(i, j));
        if (c.accumulate_c) v += static_cast<int64_t>(C->value(e));
        if (c.saturate) v = std::clamp<int64_t>(v, INT32_MIN, INT32_MAX);
        d[e] = static_cast<uint32_t>(v);
        continue;
      }
      double v = p(i, j);
      if (c.accumulate_c) v += std::ldexp(C->value(e), -c.scale);
      if (v == 0) v = 0;  // an exact zero sum is +0 (IEEE sum of zeros of mixed sign)
      if (c.d == isa::DType::F32 && static_cast<double>(static_cast<float>(v)) != v)
        throw spec::spec_error("", "case", fmt::format("exact case: D[{}][{}] = {} is not exact in f32: the inputs "
                                                       "are not an exactness-invariant case",
                                                       i, j, v));
      d[e] = c.d == isa::DType::F32 ? std::bit_cast<uint32_t>(static_cast<float>(v))
                                    : static_cast<uint32_t>(models::encode(isa::DType::F16, v, models::Round::RN, false));
    }
  return d;
}

// D words of the models::mma sm_100a reference over the chain of ksteps MMAs (sparse: each row's
// stored values against the B elements its metadata names, as the sparse datapath pairs them).
std::vector<uint32_t> engine_reference(const std::string& path, const Case& c, const Operand& A, const Operand& B,
                                       const Operand* C, const Extras& x) {
  const models::mma::ParamRow* row =
      models::mma::find_row(isa::Arch::Sm100a, models::mma::Path::Tcgen05, c.kind, c.a, c.b, c.d);
  if (!row)
    bad_case(path, fmt::format("no sm_100a tcgen05 arithmetic row for kind::{} {} x {} -> {}", isa::kind_name(c.kind),
                               isa::dtype_name(c.a), isa::dtype_name(c.b), isa::dtype_name(c.d)));
  const uint32_t kstep = c.k / c.ksteps, ka = c.sparse ? kstep / 2 : kstep;
  const uint32_t nblk = c.scale_block ? c.k / c.scale_block : 0, nsf = c.scale_block ? kstep / c.scale_block : 0;
  std::vector<uint32_t> a(size_t{c.m} * ka), b(size_t{c.n} * kstep), bg(size_t{c.n} * ka),
      acc(size_t{c.m} * c.n, 0);
  std::vector<uint8_t> sa(size_t{c.m} * nsf), sb(size_t{c.n} * nsf);
  if (c.accumulate_c)
    for (size_t e = 0; e < acc.size(); ++e) acc[e] = C->code(e);
  std::vector<uint8_t> zero_col(c.n, 0);
  for (uint32_t j : c.zero_columns) zero_col[j] = 1;
  const isa::SparseGroup g = isa::sparse_group(c.kind);
  for (uint32_t s = 0; s < c.ksteps; ++s) {
    models::mma::DotShape sh;
    sh.num = row->num;
    sh.kind = c.kind;
    sh.atype = c.a;
    sh.btype = c.b;
    sh.dtype = c.d;
    sh.k = static_cast<int>(ka);
    sh.negate_a = c.negate_a;
    sh.negate_b = c.negate_b;
    sh.saturate = c.saturate;
    sh.scale_input_d = s == 0 ? c.scale : 0;
    if (nsf) {
      sh.scale_type = c.scale_type;
      sh.scale_block = static_cast<int>(ka / nsf);
    }
    const models::mma::DotEngine eng(sh);
    const uint32_t astride = c.sparse ? c.k / 2 : c.k;
    for (uint32_t i = 0; i < c.m; ++i)
      for (uint32_t kk = 0; kk < ka; ++kk) a[size_t{i} * ka + kk] = A.code(uint64_t{i} * astride + s * ka + kk);
    for (uint32_t j = 0; j < c.n; ++j)
      for (uint32_t kk = 0; kk < kstep; ++kk)
        b[size_t{j} * kstep + kk] = zero_col[j] ? 0 : B.code(uint64_t{j} * c.k + s * kstep + kk);
    for (uint32_t i = 0; i < c.m; ++i)
      for (uint32_t t = 0; t < nsf; ++t) sa[size_t{i} * nsf + t] = static_cast<uint8_t>(x.sfa->code(uint64_t{i} * nblk + s * nsf + t));
    for (uint32_t j = 0; j < c.n; ++j)
      for (uint32_t t = 0; t < nsf; ++t) sb[size_t{j} * nsf + t] = static_cast<uint8_t>(x.sfb->code(uint64_t{j} * nblk + s * nsf + t));
    if (!c.sparse) {
      eng.tile(static_cast<int>(c.m), static_cast<int>(c.n), a.data(), b.data(), acc.data(), acc.data(),
               nsf ? sa.data() : nullptr, nsf ? sb.data() : nullptr);
      continue;
    }
    const uint32_t groups = kstep / g.elems, all_groups = c.k / g.elems;
    for (uint32_t i = 0; i < c.m; ++i) {
      uint32_t pos[16 * 4];
      for (uint32_t q = 0; q < groups; ++q)
        isa::sparse_positions(c.kind, static_cast<uint8_t>(x.e->code(uint64_t{i} * all_groups + s * groups + q) & 0xf),
                              pos + 4 * q);
      for (uint32_t j = 0; j < c.n; ++j)
        for (uint32_t q = 0; q < groups; ++q)
          for (uint32_t t = 0; t < g.kept; ++t)
            bg[size_t{j} * ka + q * g.kept + t] = b[size_t{j} * kstep + q * g.elems + pos[4 * q + t]];
      eng.tile(1, static_cast<int>(c.n), a.data() + size_t{i} * ka, bg.data(), acc.data() + size_t{i} * c.n,
               acc.data() + size_t{i} * c.n, nsf ? sa.data() + size_t{i} * nsf : nullptr, nsf ? sb.data() : nullptr);
    }
  }
  return acc;
}

struct Outcome {
  bool pass = false;
  std::string message;
};

Outcome verify_one(const std::string& path, sim::Device& dev, SimBackend& backend) {
  Json j;
  try {
    j = spec::parse_json_bounded<Json>(spec::read_regular_file(path, spec::kMaxSpecBytes), path);
  } catch (const spec::InputFileError& e) {
    return {false, fmt::format("cannot read the spec: it {}", e.what())};
  } catch (const spec::SpecError& e) {
    return {false, e.what()};
  }
  if (!j.is_object() || !j.contains("case")) return {true, "skipped (no case object)"};
  const spec::LaunchSpec s = spec::load_spec(path);
  const Case c = read_case(path, j["case"]);
  const Operand A = regenerate(s, "A"), B = regenerate(s, "B");
  std::optional<Operand> C, SFA, SFB, E;
  if (c.accumulate_c || !c.masked_rows.empty()) C = regenerate(s, "C");
  Extras x;
  if (c.scale_block) {
    SFA = regenerate(s, "SFA");
    SFB = regenerate(s, "SFB");
    const uint64_t nblk = c.k / c.scale_block;
    // "mn_words": the GEMMs' [K/(4 blk)][rows] words of four scale bytes -> [rows][K/blk] bytes.
    if (j["case"].contains("scale_layout") && j["case"]["scale_layout"] == "mn_words")
      for (auto [op, rows] : {std::pair{&*SFA, uint64_t{c.m}}, {&*SFB, uint64_t{c.n}}}) {
        if (op->bytes.size() < rows * nblk) bad_case(path, "SFA/SFB are smaller than rows x K/blk bytes");
        std::vector<std::byte> p(rows * nblk);
        for (uint64_t r = 0; r < rows; ++r)
          for (uint64_t b = 0; b < nblk; ++b) p[r * nblk + b] = op->bytes[(b / 4) * rows * 4 + r * 4 + b % 4];
        op->bytes = std::move(p);
      }
    if (SFA->count < c.m * nblk || SFB->count < c.n * nblk)
      bad_case(path, "the SFA/SFB buffers are smaller than M x K/blk, N x K/blk");
    x.sfa = &*SFA;
    x.sfb = &*SFB;
  }
  if (c.sparse) {
    E = regenerate(s, "E");
    if (E->count < uint64_t{c.m} * (c.k / isa::sparse_group(c.kind).elems))
      bad_case(path, "the metadata buffer E is smaller than M x K/G");
    x.e = &*E;
  }
  if (A.count < uint64_t{c.m} * (c.sparse ? c.k / 2 : c.k) || B.count < uint64_t{c.n} * c.k ||
      (C && C->count < uint64_t{c.m} * c.n))
    bad_case(path, "the A/B/C buffers are smaller than M x K, N x K, M x N");
  std::vector<uint32_t> ref;
  try {
    ref = c.exact ? exact_reference(c, A, B, C ? &*C : nullptr, x) : engine_reference(path, c, A, B, C ? &*C : nullptr, x);
  } catch (const spec::SpecError& e) {
    bad_case(path, e.what());
  }
  for (uint32_t r : c.masked_rows)
    for (uint32_t j2 = 0; j2 < c.n; ++j2) ref[size_t{r} * c.n + j2] = C->code(size_t{r} * c.n + j2);

  backend.set_spec_file(s.path);
  spec::RunResult run;
  try {
    run = spec::run_spec(s, spec::read_ptx(s), backend);
  } catch (const std::exception& e) {
    return {false, fmt::format("simulation failed: {}", e.what())};
  }
  (void)dev;
  const spec::OutputArray* D = nullptr;
  for (const auto& o : run.outputs)
    if (o.name == "D") D = &o;
  if (!D) bad_case(path, "the spec has no output D");
  const uint32_t size = spec::elem_bytes(D->dtype);
  if (D->count() != ref.size()) bad_case(path, fmt::format("D holds {} elements, M x N = {}", D->count(), ref.size()));
  uint64_t bad = 0, first = 0;
  uint32_t got_first = 0;
  for (size_t e = 0; e < ref.size(); ++e) {
    uint32_t got = 0;
    std::memcpy(&got, D->data.data() + e * size, size);
    const uint32_t want = size == 2 ? ref[e] & 0xffffu : ref[e];
    if (got != want) {
      if (!bad++) {
        first = e;
        got_first = got;
      }
    }
  }
  if (c.bug) {
    // The deliberately wrong descriptor must give wrong numbers (and the warnings say why).
    std::string why;
    for (const std::string& w : run.outcome.finding_lines)
      if (w.find("misreads") != std::string::npos) why = w;
    if (!bad) return {false, fmt::format("bug {}: D equals the reference, but the descriptor is wrong", c.bug)};
    return {true, fmt::format("bug {}: {} of {} D elements wrong, as the bug demands; {}", c.bug, bad, ref.size(),
                              why.empty() ? "NO misread report" : why)};
  }
  if (!bad) return {true, {}};
  const size_t m = first / c.n, n = first % c.n;
  return {false, fmt::format("{} of {} D elements differ from the {} reference; first D[{}][{}]: tcsim 0x{:0{}x}, "
                             "reference 0x{:0{}x}{}",
                             bad, ref.size(), c.exact ? "exact" : "models::mma", m, n, got_first, 2 * size,
                             size == 2 ? ref[first] & 0xffffu : ref[first], 2 * size,
                             std::find(c.masked_rows.begin(), c.masked_rows.end(), m) != c.masked_rows.end()
                                 ? " (a masked row: it must keep C)"
                                 : "")};
}

int run_verify_case(Args args) {
  std::vector<std::string> specs;
  std::string filter;
  bool quiet = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--filter") {
      if (i + 1 >= args.size()) throw UsageError("--filter needs a text (specs whose file name contains it)");
      filter = std::string(args[++i]);
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a.starts_with("--")) {
      throw UsageError(fmt::format("unknown option '{}' (options: --filter TEXT, --quiet)", a));
    } else if (fs::is_directory(std::string(a))) {
      std::vector<std::string> in_dir;
      for (const auto& e : fs::directory_iterator(std::string(a)))
        if (e.path().extension() == ".json") in_dir.push_back(e.path().string());
      std::sort(in_dir.begin(), in_dir.end());  // deterministic order
      specs.insert(specs.end(), in_dir.begin(), in_dir.end());
    } else if (fs::exists(std::string(a))) {
      specs.emplace_back(a);
    } else {
      throw UsageError(fmt::format("'{}' is neither a spec file nor a directory", a));
    }
  }
  if (specs.empty())
    throw UsageError("usage: tcsim verify-case SPEC.json|DIR ... [--filter TEXT] [--quiet]");
  // One device per architecture, reused: the module of a PTX file is parsed and bound once.
  std::optional<sim::Device> dev;
  std::optional<SimBackend> backend;
  uint32_t pass = 0, fail = 0, skipped = 0;
  for (const std::string& p : specs) {
    if (!filter.empty() && fs::path(p).filename().string().find(filter) == std::string::npos) continue;
    if (!dev) {
      dev.emplace(isa::Arch::Sm100a);
      backend.emplace(*dev, p);
    }
    Outcome o;
    try {
      o = verify_one(p, *dev, *backend);
    } catch (const spec::SpecError& e) {
      o = {false, e.what()};
    }
    if (o.pass && o.message.starts_with("skipped")) {
      ++skipped;
      continue;
    }
    if (o.pass) {
      ++pass;
      if (!quiet || !o.message.empty()) fmt::print("PASS {}{}{}\n", p, o.message.empty() ? "" : ": ", o.message);
    } else {
      ++fail;
      fmt::print("FAIL {}: {}\n", p, o.message);
    }
    std::fflush(stdout);
  }
  fmt::print("verify-case: {} of {} specs pass ({} fail{})\n", pass, pass + fail, fail,
             skipped ? fmt::format(", {} without a case skipped", skipped) : std::string());
  return fail ? 1 : 0;
}

}  // namespace

[[maybe_unused]] const bool verify_case_registered = register_command(
    {"verify-case",
     "verify-case SPEC.json|DIR ... [--filter TEXT] [--quiet]   run specs with a `case` object "
     "(kernels/tcgen05) and compare D with the exact / models::mma reference",
     run_verify_case});

}  // namespace tcsim::cli
