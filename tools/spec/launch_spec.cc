#include "tools/spec/launch_spec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/arch.h"
#include "models/machine/machine_config.h"
#include "tools/spec/buffer_init.h"
#include "tools/spec/input_file.h"
#include "tools/spec/json_limits.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

using Json = nlohmann::ordered_json;  // keeps file order: buffers are allocated as written
namespace fs = std::filesystem;

// Parsing context: the file name for messages and the directory for relative paths.
struct Ctx {
  std::string file;
  std::string dir;

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw spec_error(file, path, what);
  }
};

std::string type_name(const Json& j) {
  if (j.is_number_float()) return "a number with a fraction";
  if (j.is_number()) return "an integer";
  return std::string(j.type_name()) == "object" ? "an object" : "a " + std::string(j.type_name());
}

std::string join(std::initializer_list<std::string_view> names) {
  std::string r;
  for (auto n : names) r += (r.empty() ? "" : ", ") + std::string(n);
  return r;
}

// Keys a spec object may hold; "comment" and keys starting with '_' are always allowed (notes), and
// so are "case" and "description" (fields for tests and readers, LAUNCH_SPEC.md "tools may accept
// more fields": kernels/tcgen05's `case` says what D must be).
void check_keys(const Ctx& c, const Json& obj, const std::string& path,
                std::initializer_list<std::string_view> allowed) {
  for (const auto& [k, v] : obj.items()) {
    if (k == "comment" || k == "case" || k == "description" || (!k.empty() && k[0] == '_')) continue;
    bool ok = false;
    for (auto a : allowed) ok |= (a == k);
    if (!ok)
      c.fail(path, fmt::format("unknown field \"{}\" (legal here: {})", k, join(allowed)));
  }
}

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
std::string index(const std::string& path, size_t i) { return fmt::format("{}[{}]", path, i); }

const Json& need_object(const Ctx& c, const Json& j, const std::string& path) {
  if (!j.is_object()) c.fail(path, fmt::format("expected an object {{...}}, found {}", type_name(j)));
  return j;
}

const Json& need(const Ctx& c, const Json& obj, const std::string& path, std::string_view key,
                 std::string_view what) {
  auto it = obj.find(std::string(key));
  if (it == obj.end())
    c.fail(path, fmt::format("missing required field \"{}\" ({})", key, what));
  return *it;
}

uint64_t get_uint(const Ctx& c, const Json& j, const std::string& path, uint64_t lo, uint64_t hi) {
  if (!j.is_number_integer() && !(j.is_number_float() && std::isfinite(j.get<double>()) &&
                                  j.get<double>() == std::floor(j.get<double>())))
    c.fail(path, fmt::format("expected an integer in [{}, {}], found {} {}", lo, hi, type_name(j),
                             j.dump()));
  bool ok;
  uint64_t v = 0;
  if (j.is_number_unsigned()) {
    v = j.get<uint64_t>();
    ok = true;
  } else if (j.is_number_integer()) {
    ok = false;  // negative
  } else {
    const double d = j.get<double>();
    ok = d >= 0 && d < 0x1p64;
    if (ok) v = static_cast<uint64_t>(d);
  }
  if (!ok || v < lo || v > hi)
    c.fail(path, fmt::format("{} is out of range (legal: an integer in [{}, {}])", j.dump(), lo, hi));
  return v;
}

std::string get_string(const Ctx& c, const Json& j, const std::string& path, std::string_view what) {
  if (!j.is_string()) c.fail(path, fmt::format("expected {} (a string), found {}", what, type_name(j)));
  return j.get<std::string>();
}

// A number as written, or one of the strings "inf", "-inf", "nan" when `specials`.
Number get_number(const Ctx& c, const Json& j, const std::string& path, bool specials) {
  if (j.is_number_unsigned()) return {Number::Kind::Unsigned, 0, j.get<uint64_t>(), 0};
  if (j.is_number_integer()) return {Number::Kind::Signed, j.get<int64_t>(), 0, 0};
  if (j.is_number_float()) return Number::of(j.get<double>());
  if (specials && j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "inf" || s == "+inf") return Number::of(HUGE_VAL);
    if (s == "-inf") return Number::of(-HUGE_VAL);
    if (s == "nan") return Number::of(std::nan(""));
  }
  c.fail(path, fmt::format("expected a number{}, found {} {}",
                           specials ? " (or \"inf\", \"-inf\", \"nan\", or raw bits \"0x...\")" : "",
                           type_name(j), j.dump()));
}

// "0x..." raw bits, or nullopt when j is not a string starting with 0x.
std::optional<uint64_t> get_raw_bits(const Ctx& c, const Json& j, const std::string& path) {
  if (!j.is_string()) return std::nullopt;
  const std::string s = j.get<std::string>();
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
  if (s.size() > 18) c.fail(path, fmt::format("raw bits \"{}\" have more than 64 bits", s));
  uint64_t v = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const char ch = s[i];
    int d;
    if (ch >= '0' && ch <= '9') d = ch - '0';
    else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
    else c.fail(path, fmt::format("raw bits \"{}\": '{}' is not a hex digit", s, ch));
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return v;
}

Dim3 get_dim3(const Ctx& c, const Json& j, const std::string& path, uint32_t max_x,
              uint32_t max_yz) {
  if (!j.is_array() || j.size() != 3)
    c.fail(path, fmt::format("expected three positive integers [x, y, z], found {}", j.dump()));
  Dim3 d;
  d.x = static_cast<uint32_t>(get_uint(c, j[0], index(path, 0), 1, max_x));
  d.y = static_cast<uint32_t>(get_uint(c, j[1], index(path, 1), 1, max_yz));
  d.z = static_cast<uint32_t>(get_uint(c, j[2], index(path, 2), 1, max_yz));
  return d;
}

template <class T>
std::vector<T> get_uint_list(const Ctx& c, const Json& j, const std::string& path, size_t min_n,
                             size_t max_n, uint64_t lo, uint64_t hi) {
  if (!j.is_array() || j.size() < min_n || j.size() > max_n)
    c.fail(path, fmt::format("expected a list of {}{} integers, found {}", min_n,
                             max_n != min_n ? fmt::format(" to {}", max_n) : "", j.dump()));
  std::vector<T> v;
  for (size_t i = 0; i < j.size(); ++i)
    v.push_back(static_cast<T>(get_uint(c, j[i], index(path, i), lo, hi)));
  return v;
}

std::string resolve(const Ctx& c, const std::string& p) {
  if (p.empty() || fs::path(p).is_absolute() || c.dir.empty()) return p;
  return (fs::path(c.dir) / p).lexically_normal().string();
}

std::string legal_names(const std::vector<std::string>& names) {
  if (names.empty()) return "none are declared";
  std::string r = "declared: ";
  for (size_t i = 0; i < names.size(); ++i) r += (i ? ", " : "") + names[i];
  return r;
}

InitSpec parse_init(const Ctx& c, const Json& j, const std::string& path, bool buffer) {
  need_object(c, j, path);
  InitSpec in;
  in.spec_file = c.file;
  in.json_path = path;
  if (buffer && j.contains("uninitialised")) {
    // tcsim extension: the host never writes the buffer (docs/launch_spec.md).
    check_keys(c, j, path, {"uninitialised"});
    const Json& v = j["uninitialised"];
    if (!v.is_boolean() || !v.get<bool>())
      c.fail(child(path, "uninitialised"), fmt::format("expected true, found {}", v.dump()));
    in.kind = InitKind::Uninitialised;
    return in;
  }
  size_t forms = 0;
  for (auto k : {"fill", "file", "random", "iota"}) forms += j.contains(k);
  if (forms != 1)
    c.fail(path, fmt::format("expected exactly one of {{\"fill\": V}}, {{\"file\": \"x.npy\"}}, "
                             "{{\"random\": {{...}}}}, {{\"iota\": {{...}}}}; found {}", j.dump()));
  check_keys(c, j, path, {"fill", "file", "random", "iota"});
  if (j.contains("fill")) {
    in.kind = InitKind::Fill;
    const std::string p = child(path, "fill");
    in.fill_bits = get_raw_bits(c, j["fill"], p);
    if (!in.fill_bits) in.fill = get_number(c, j["fill"], p, true);
  } else if (j.contains("file")) {
    in.kind = InitKind::File;
    in.file = get_string(c, j["file"], child(path, "file"), "a .npy path relative to the spec");
    in.file_path = resolve(c, in.file);
    in.json_path = child(path, "file");
  } else if (j.contains("random")) {
    in.kind = InitKind::Random;
    const std::string p = child(path, "random");
    const Json& r = need_object(c, j["random"], p);
    in.json_path = p;
    in.seed = get_uint(c, need(c, r, p, "seed", "an integer in [0, 2^64)"), child(p, "seed"), 0, UINT64_MAX);
    const std::string dist = get_string(c, need(c, r, p, "dist", "uniform, normal, bits or integers"),
                                        child(p, "dist"), "a distribution");
    if (dist == "uniform") {
      in.dist = RandomDist::Uniform;
      check_keys(c, r, p, {"seed", "dist", "low", "high"});
      if (r.contains("low")) in.low = get_number(c, r["low"], child(p, "low"), false);
      if (r.contains("high")) in.high = get_number(c, r["high"], child(p, "high"), false);
    } else if (dist == "normal") {
      in.dist = RandomDist::Normal;
      check_keys(c, r, p, {"seed", "dist", "mean", "std"});
      if (r.contains("mean")) in.mean = get_number(c, r["mean"], child(p, "mean"), false).as_double();
      if (r.contains("std")) in.stddev = get_number(c, r["std"], child(p, "std"), false).as_double();
    } else if (dist == "bits") {
      in.dist = RandomDist::Bits;
      check_keys(c, r, p, {"seed", "dist"});
    } else if (dist == "integers") {
      in.dist = RandomDist::Integers;
      check_keys(c, r, p, {"seed", "dist", "low", "high"});
      if (r.contains("low")) in.low = get_number(c, r["low"], child(p, "low"), false);
      if (r.contains("high")) in.high = get_number(c, r["high"], child(p, "high"), false);
    } else {
      c.fail(child(p, "dist"),
             fmt::format("\"{}\" is not a distribution (legal: uniform, normal, bits, integers)", dist));
    }
  } else {
    in.kind = InitKind::Iota;
    const std::string p = child(path, "iota");
    const Json& r = need_object(c, j["iota"], p);
    in.json_path = p;
    check_keys(c, r, p, {"start", "step"});
    if (r.contains("start")) in.start = get_number(c, r["start"], child(p, "start"), false);
    if (r.contains("step")) in.step = get_number(c, r["step"], child(p, "step"), false);
  }
  return in;
}

SpecDType get_dtype(const Ctx& c, const Json& j, const std::string& path) {
  const std::string s = get_string(c, j, path, "an element type");
  if (auto t = parse_spec_dtype(s)) return *t;
  c.fail(path, fmt::format("\"{}\" is not an element type (legal: {})", s, legal_spec_dtypes()));
}

BufferSpec parse_buffer(const Ctx& c, const std::string& name, const Json& j, const std::string& path) {
  need_object(c, j, path);
  check_keys(c, j, path, {"dtype", "shape", "init"});
  BufferSpec b;
  b.name = name;
  b.dtype = get_dtype(c, need(c, j, path, "dtype", "the element type"), child(path, "dtype"));
  const Json& shape = need(c, j, path, "shape", "a list of positive integers, outermost first");
  if (!shape.is_array() || shape.empty())
    c.fail(child(path, "shape"), fmt::format("expected a non-empty list of positive integers, found {}", shape.dump()));
  for (size_t i = 0; i < shape.size(); ++i)
    b.shape.push_back(get_uint(c, shape[i], index(child(path, "shape"), i), 1, UINT64_MAX));
  checked_count(b.shape, elem_bytes(b.dtype), c.file, child(path, "shape"));
  if (j.contains("init")) {
    b.init = parse_init(c, j["init"], child(path, "init"), /*buffer=*/true);
  } else {
    b.init.kind = InitKind::Fill;  // no "init": zero-filled (docs/launch_spec.md)
    b.init.fill = Number::of_int(0);
    b.init.spec_file = c.file;
    b.init.json_path = path;
  }
  check_init(b.init, b.dtype, b.count());
  return b;
}

template <class E>
E get_enum(const Ctx& c, const Json& obj, const std::string& path, std::string_view key, E dflt,
           std::optional<E> (*parse)(std::string_view), std::string_view legal) {
  auto it = obj.find(std::string(key));
  if (it == obj.end()) return dflt;
  const std::string p = child(path, key);
  const std::string s = get_string(c, *it, p, "a name");
  if (auto v = parse(s)) return *v;
  c.fail(p, fmt::format("\"{}\" is not legal here (legal: {})", s, legal));
}

TensorMapSpec parse_tensor_map(const Ctx& c, const std::string& name, const Json& j,
                               const std::string& path, const std::vector<BufferSpec>& buffers) {
  need_object(c, j, path);
  check_keys(c, j, path, {"buffer", "offset_bytes", "dtype", "global_dims", "global_strides_bytes",
                          "box_dims", "element_strides", "interleave", "swizzle", "l2_promotion",
                          "oob_fill"});
  TensorMapSpec t;
  t.name = name;
  t.buffer = get_string(c, need(c, j, path, "buffer", "the buffer the map describes"),
                        child(path, "buffer"), "a buffer name");
  const BufferSpec* buf = nullptr;
  std::vector<std::string> names;
  for (const auto& b : buffers) {
    names.push_back(b.name);
    if (b.name == t.buffer) buf = &b;
  }
  if (!buf) c.fail(child(path, "buffer"), fmt::format("no buffer \"{}\" ({})", t.buffer, legal_names(names)));
  if (j.contains("offset_bytes"))
    t.offset_bytes = get_uint(c, j["offset_bytes"], child(path, "offset_bytes"), 0, buf->bytes() - 1);
  if (j.contains("dtype")) {
    const std::string s = get_string(c, j["dtype"], child(path, "dtype"), "a tensor-map element type");
    auto d = parse_tm_dtype(s);
    if (!d) c.fail(child(path, "dtype"), fmt::format("\"{}\" is not a tensor-map element type (legal: {})", s, legal_tm_dtypes()));
    t.dtype = *d;
  } else {
    // Default: the buffer's element type (byte types travel as u8, see tensor_map_spec.cc).
    t.dtype = *parse_tm_dtype(spec::name(buf->dtype));
  }
  // Counts must agree with the rank (the driver takes the rank once; docs/tma_and_mbarrier.md §1:
  // 1 <= rank <= 5). Value limits are the driver's rules, checked by validate_tensor_map.
  const std::string pd = child(path, "global_dims");
  t.global_dims = get_uint_list<uint64_t>(
      c, need(c, j, path, "global_dims", "1 to 5 sizes, innermost first"), pd, 1, 5, 0, UINT64_MAX);
  const size_t rank = t.global_dims.size();
  if (rank > 1 || j.contains("global_strides_bytes"))
    t.global_strides_bytes = get_uint_list<uint64_t>(
        c, need(c, j, path, "global_strides_bytes", "rank-1 byte strides for dims 1.."),
        child(path, "global_strides_bytes"), rank - 1, rank - 1, 0, UINT64_MAX);
  t.box_dims = get_uint_list<uint32_t>(c, need(c, j, path, "box_dims", "rank box sizes"),
                                       child(path, "box_dims"), rank, rank, 0, UINT32_MAX);
  if (j.contains("element_strides"))
    t.element_strides = get_uint_list<uint32_t>(c, j["element_strides"],
                                                child(path, "element_strides"), rank, rank, 0, UINT32_MAX);
  else
    t.element_strides.assign(rank, 1);
  t.interleave = get_enum(c, j, path, "interleave", TmInterleave::None, parse_tm_interleave, "none, 16B, 32B");
  t.swizzle = get_enum(c, j, path, "swizzle", TmSwizzle::None, parse_tm_swizzle,
                       "none, 32B, 64B, 128B, 128B_atom_32B, 128B_atom_32B_flip_8B, 128B_atom_64B");
  t.l2_promotion = get_enum(c, j, path, "l2_promotion", TmL2Promotion::None, parse_tm_l2_promotion,
                            "none, 64B, 128B, 256B");
  t.oob_fill = get_enum(c, j, path, "oob_fill", TmOobFill::None, parse_tm_oob_fill, "none, nan");
  return t;
}

// Scalar argument types (LAUNCH_SPEC.md "args").
constexpr std::string_view kScalarTypes[] = {"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64"};

// {"bytes": "0a0b0c0d"}: hex pairs in memory order (LAUNCH_SPEC.md "args").
std::vector<uint8_t> parse_hex_bytes(const Ctx& c, const Json& j, const std::string& path) {
  const std::string s = get_string(c, j, path, "hex pairs in memory order, e.g. \"0a0b0c0d\"");
  if (s.empty()) c.fail(path, "no bytes given (legal: one or more hex pairs, e.g. \"0a0b0c0d\")");
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    c.fail(path, fmt::format("\"{}\": bytes are hex pairs in memory order without a \"0x\" prefix (for a "
                             "number in raw bits use a scalar such as {{\"u32\": \"0x...\"}})", s));
  if (s.size() % 2)
    c.fail(path, fmt::format("\"{}\" has {} hex digits, not whole bytes (legal: hex pairs, two digits per byte)",
                             s.size() > 40 ? s.substr(0, 40) + "..." : s, s.size()));
  if (s.size() / 2 > kMaxParamBytes)
    c.fail(path, fmt::format("{} bytes are more than a kernel parameter can hold ({} bytes)", s.size() / 2,
                             kMaxParamBytes));
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    int d;
    if (ch >= '0' && ch <= '9') d = ch - '0';
    else if (ch >= 'a' && ch <= 'f') d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F') d = ch - 'A' + 10;
    else c.fail(path, fmt::format("character {} ('{}') is not a hex digit (legal: 0-9, a-f, A-F)", i, ch));
    out[i / 2] = static_cast<uint8_t>(out[i / 2] << 4 | d);
  }
  return out;
}

void check_arg_keys(const Ctx& c, const Json& j, const std::string& path, bool field,
                    std::initializer_list<std::string_view> allowed) {
  if (!field) return check_keys(c, j, path, allowed);
  std::vector<std::string_view> with(allowed);
  with.insert(with.begin(), "offset");
  for (const auto& [k, v] : j.items()) {
    if (k == "comment" || k == "case" || k == "description" || (!k.empty() && k[0] == '_')) continue;
    bool ok = false;
    for (auto a : with) ok |= (a == k);
    if (!ok) {
      std::string legal;
      for (auto a : with) legal += (legal.empty() ? "" : ", ") + std::string(a);
      c.fail(path, fmt::format("unknown field \"{}\" (legal here: {})", k, legal));
    }
  }
}

constexpr std::string_view kArgForms =
    "{\"buffer\": NAME [, \"offset_bytes\": N]}, {\"tensor_map\": NAME}, one scalar {\"u32\": V}, "
    "{\"bytes\": \"0a0b...\"} or {\"struct\": {\"size\": N, \"fields\": [...]}}";

// Aggregates nest at most this deep (a bound on the recursion; real parameter structs nest a few levels).
constexpr int kMaxStructDepth = 16;

ArgSpec parse_arg(const Ctx& c, const Json& j, const std::string& path, const LaunchSpec& s, bool field,
                  int depth);

// {"struct": {"size": N, "fields": [{"offset": O, ...an argument form...}, ...]}}: a by-value
// aggregate (LAUNCH_SPEC.md "args"). Fields must lie inside [0, N), not overlap, and sit at a
// multiple of their natural alignment (ArgSpec::align).
void parse_struct(const Ctx& c, const Json& j, const std::string& path, const LaunchSpec& s, ArgSpec& a,
                  int depth) {
  need_object(c, j, path);
  if (depth > kMaxStructDepth)
    c.fail(path, fmt::format("aggregates nested more than {} deep", kMaxStructDepth));
  check_keys(c, j, path, {"size", "fields"});
  a.kind = ArgKind::Struct;
  a.struct_size = static_cast<uint32_t>(
      get_uint(c, need(c, j, path, "size", "the aggregate's size in bytes"), child(path, "size"), 1, kMaxParamBytes));
  const std::string fp = child(path, "fields");
  const Json& fs = need(c, j, path, "fields", "a list of {\"offset\": O, ...an argument form...}");
  if (!fs.is_array()) c.fail(fp, fmt::format("expected a list of fields, found {}", type_name(fs)));
  for (size_t i = 0; i < fs.size(); ++i) {
    const std::string p = index(fp, i);
    need_object(c, fs[i], p);
    const uint64_t off =
        get_uint(c, need(c, fs[i], p, "offset", "the field's byte offset in the aggregate"), child(p, "offset"), 0,
                 a.struct_size - 1);
    ArgSpec f = parse_arg(c, fs[i], p, s, true, depth);
    f.field_offset = static_cast<uint32_t>(off);
    const uint64_t end = off + f.size();
    if (end > a.struct_size)
      c.fail(p, fmt::format("the field {} ({} bytes at offset {}) ends at byte {}, past the aggregate's size {}",
                            f.describe(), f.size(), off, end, a.struct_size));
    if (off % f.align() != 0)
      c.fail(p, fmt::format("the field {} at offset {} is not {}-byte aligned ({}; the nearest legal offsets "
                            "are {} and {})", f.describe(), off, f.align(),
                            f.kind == ArgKind::Buffer      ? "a pointer's natural alignment"
                            : f.kind == ArgKind::TensorMap ? "a CUtensorMap is alignas(64)"
                            : f.kind == ArgKind::Struct    ? "its largest field's alignment"
                                                           : "a scalar's alignment is its size",
                            off / f.align() * f.align(), (off / f.align() + 1) * f.align()));
    a.fields.push_back(std::move(f));
  }
  // Overlaps: sorted by offset, each field must end before the next one starts. The message names
  // the later-written field of the pair and the one it overlaps.
  std::vector<size_t> order(a.fields.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return a.fields[x].field_offset < a.fields[y].field_offset;
  });
  for (size_t k = 1; k < order.size(); ++k) {
    size_t i = order[k - 1], n = order[k];
    if (a.fields[i].field_offset + a.fields[i].size() <= a.fields[n].field_offset) continue;
    if (i > n) std::swap(i, n);
    const ArgSpec& f = a.fields[n];
    const ArgSpec& g = a.fields[i];
    c.fail(index(fp, n), fmt::format("the field {} at bytes [{}, {}) overlaps {}[{}] {} at bytes [{}, {})",
                                     f.describe(), f.field_offset, f.field_offset + f.size(), fp, i,
                                     g.describe(), g.field_offset, g.field_offset + g.size()));
  }
}

ArgSpec parse_arg(const Ctx& c, const Json& j, const std::string& path, const LaunchSpec& s, bool field,
                  int depth) {
  need_object(c, j, path);
  ArgSpec a;
  a.json_path = path;
  if (j.contains("buffer")) {
    check_arg_keys(c, j, path, field, {"buffer", "offset_bytes"});
    a.kind = ArgKind::Buffer;
    a.name = get_string(c, j["buffer"], child(path, "buffer"), "a buffer name");
    const BufferSpec* b = s.find_buffer(a.name);
    if (!b) {
      std::vector<std::string> names;
      for (const auto& x : s.buffers) names.push_back(x.name);
      c.fail(child(path, "buffer"), fmt::format("no buffer \"{}\" ({})", a.name, legal_names(names)));
    }
    if (j.contains("offset_bytes"))
      a.offset_bytes = get_uint(c, j["offset_bytes"], child(path, "offset_bytes"), 0, b->bytes());
    return a;
  }
  if (j.contains("tensor_map")) {
    check_arg_keys(c, j, path, field, {"tensor_map"});
    a.kind = ArgKind::TensorMap;
    a.name = get_string(c, j["tensor_map"], child(path, "tensor_map"), "a tensor map name");
    if (!s.find_tensor_map(a.name)) {
      std::vector<std::string> names;
      for (const auto& x : s.tensor_maps) names.push_back(x.name);
      c.fail(child(path, "tensor_map"), fmt::format("no tensor map \"{}\" ({})", a.name, legal_names(names)));
    }
    return a;
  }
  if (j.contains("bytes")) {
    check_arg_keys(c, j, path, field, {"bytes"});
    a.kind = ArgKind::Bytes;
    a.bytes = parse_hex_bytes(c, j["bytes"], child(path, "bytes"));
    return a;
  }
  if (j.contains("struct")) {
    check_arg_keys(c, j, path, field, {"struct"});
    parse_struct(c, j["struct"], child(path, "struct"), s, a, depth + 1);
    return a;
  }
  const size_t forms = j.size() - (field && j.contains("offset") ? 1 : 0);
  if (forms != 1)
    c.fail(path, fmt::format("expected {}; found {}", kArgForms, j.dump()));
  // The one scalar member (through iterators: items()' proxies are temporaries, keep no reference).
  std::string key;
  const Json* valp = nullptr;
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!(field && it.key() == "offset")) {
      key = it.key();
      valp = &it.value();
    }
  const Json& val = *valp;
  bool scalar = false;
  for (auto t : kScalarTypes) scalar |= (t == key);
  if (!scalar)
    c.fail(path, fmt::format("unknown argument kind \"{}\" (legal: buffer, tensor_map, bytes, struct, u8, i8, "
                             "u16, i16, u32, i32, u64, i64, f32, f64)", key));
  a.kind = ArgKind::Scalar;
  a.scalar = *parse_spec_dtype(key);
  const std::string p = child(path, key);
  const uint32_t bytes = elem_bytes(a.scalar);
  if (auto raw = get_raw_bits(c, val, p)) {
    if (bytes < 8 && *raw >> (8 * bytes))
      c.fail(p, fmt::format("raw bits \"0x{:x}\" do not fit in {} bytes", *raw, bytes));
    a.scalar_bits = *raw;
    return a;
  }
  const Number n = get_number(c, val, p, a.scalar == SpecDType::F32 || a.scalar == SpecDType::F64);
  if (a.scalar == SpecDType::F64) {
    a.scalar_bits = std::bit_cast<uint64_t>(n.as_double());
  } else if (a.scalar == SpecDType::F32) {
    const double d = n.as_double();
    if (std::isfinite(d) && std::fabs(d) > 0x1.fffffep127)
      c.fail(p, fmt::format("{} is outside f32's finite range", n.to_string()));
    a.scalar_bits = std::bit_cast<uint32_t>(static_cast<float>(d));  // round to nearest even
  } else {
    // Integers: reuse the init range check (same rules as a fill value).
    InitSpec in;
    in.fill = n;
    in.spec_file = c.file;
    in.json_path = p;
    check_init(in, a.scalar, 1);
    const auto bytes_v = make_init_bytes(in, a.scalar, 1);
    std::memcpy(&a.scalar_bits, bytes_v.data(), bytes);
  }
  return a;
}

}  // namespace

double Number::as_double() const {
  switch (kind) {
    case Kind::Signed: return static_cast<double>(s);
    case Kind::Unsigned: return static_cast<double>(u);
    case Kind::Real: return d;
  }
  return 0;
}

bool Number::is_integral() const {
  return kind != Kind::Real || (std::isfinite(d) && d == std::floor(d));
}

std::string Number::to_string() const {
  switch (kind) {
    case Kind::Signed: return fmt::format("{}", s);
    case Kind::Unsigned: return fmt::format("{}", u);
    case Kind::Real: return fmt::format("{}", d);
  }
  return "?";
}

uint64_t BufferSpec::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;  // bounded by checked_count at parse time
  return n;
}

uint32_t ArgSpec::size() const {
  switch (kind) {
    case ArgKind::Buffer: return 8;      // a 64-bit generic/global address (.u64 param)
    case ArgKind::TensorMap: return 128; // CUtensorMap, by value (§5.5.8; cuda.h CU_TENSOR_MAP_NUM_QWORDS 16)
    case ArgKind::Scalar: return elem_bytes(scalar);
    case ArgKind::Bytes: return static_cast<uint32_t>(bytes.size());
    case ArgKind::Struct: return struct_size;
  }
  return 0;
}

uint32_t ArgSpec::align() const {
  switch (kind) {
    case ArgKind::Buffer: return 8;
    case ArgKind::TensorMap: return 64;
    case ArgKind::Scalar: return elem_bytes(scalar);
    case ArgKind::Bytes: return 1;
    case ArgKind::Struct: {
      uint32_t a = 1;
      for (const ArgSpec& f : fields) a = std::max(a, f.align());
      return a;
    }
  }
  return 1;
}

std::string ArgSpec::describe() const {
  switch (kind) {
    case ArgKind::Buffer:
      return offset_bytes ? fmt::format("{{\"buffer\": \"{}\", \"offset_bytes\": {}}}", name, offset_bytes)
                          : fmt::format("{{\"buffer\": \"{}\"}}", name);
    case ArgKind::TensorMap: return fmt::format("{{\"tensor_map\": \"{}\"}}", name);
    case ArgKind::Scalar: return fmt::format("{{\"{}\": 0x{:x}}}", spec::name(scalar), scalar_bits);
    case ArgKind::Bytes: {
      std::string hex;
      for (size_t i = 0; i < bytes.size() && i < 8; ++i) hex += fmt::format("{:02x}", bytes[i]);
      return fmt::format("{{\"bytes\": \"{}{}\"}}", hex, bytes.size() > 8 ? "..." : "");
    }
    case ArgKind::Struct:
      return fmt::format("{{\"struct\": {{\"size\": {}, {} field{}}}}}", struct_size, fields.size(),
                         fields.size() == 1 ? "" : "s");
  }
  return "?";
}

const BufferSpec* LaunchSpec::find_buffer(std::string_view n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

const TensorMapSpec* LaunchSpec::find_tensor_map(std::string_view n) const {
  for (const auto& t : tensor_maps)
    if (t.name == n) return &t;
  return nullptr;
}

uint64_t checked_count(const std::vector<uint64_t>& shape, uint32_t elem_size,
                       const std::string& file, const std::string& json_path) {
  constexpr uint64_t kMaxBytes = uint64_t{1} << 40;
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d == 0 || n > kMaxBytes / elem_size / d)
      throw spec_error(file, json_path,
                       fmt::format("shape [{}] is empty or larger than 2^40 bytes", fmt::join(shape, ", ")));
    n *= d;
  }
  return n;
}

std::string ptx_target(std::string_view text) {
  // Line by line (linear in the text: a search backwards from each ".target" for the line start was
  // quadratic on a long line of them). The directive starts a line after blanks, so an occurrence
  // inside a // comment is not it.
  for (size_t bol = 0; bol < text.size();) {
    size_t eol = text.find('\n', bol);
    if (eol == std::string_view::npos) eol = text.size();
    const size_t p = text.find_first_not_of(" \t", bol);
    if (p != std::string_view::npos && p < eol && text.substr(p, 7) == ".target") {
      const size_t b = text.find_first_not_of(" \t", p + 7);
      if (b == std::string_view::npos) return "";
      const size_t e = text.find_first_of(" \t\r\n,;", b);
      return std::string(text.substr(b, e == std::string_view::npos ? e : e - b));
    }
    bol = eol + 1;
  }
  return "";
}

namespace {
LaunchSpec parse_spec_fields(std::string_view text, const std::string& path) {
  Ctx c{path, fs::path(path).parent_path().string()};
  Json j = parse_json_bounded<Json>(text, path);
  need_object(c, j, "(top level)");
  check_keys(c, j, "", {"version", "ptx", "kernel", "arch", "grid", "block", "cluster",
                        "dynamic_smem_bytes", "printf_fifo_bytes", "buffers", "tensor_maps", "args", "symbols",
                        "outputs"});
  LaunchSpec s;
  s.path = path;
  s.dir = c.dir;
  if (j.contains("version") && get_uint(c, j["version"], "version", 0, UINT64_MAX) != 1)
    c.fail("version", fmt::format("version {} is not supported (this tool reads launch spec version 1)",
                                  j["version"].dump()));
  s.ptx = get_string(c, need(c, j, "", "ptx", "the PTX file, relative to the spec"), "ptx", "a path");
  s.ptx_path = resolve(c, s.ptx);
  s.kernel = get_string(c, need(c, j, "", "kernel", "the .entry name or a unique part of it"), "kernel",
                        "a kernel name");
  if (s.kernel.empty()) c.fail("kernel", "the kernel name is empty");
  if (j.contains("arch")) s.arch = get_string(c, j["arch"], "arch", "an architecture such as sm_100a");
  // Launch limits: the machine table's row for the spec's arch (models/machine/machine_config.h;
  // sm_100a's without an arch: every row has the same launch limits), as Device::launch checks them.
  const auto arch = s.arch ? isa::parse_arch(*s.arch) : std::nullopt;
  const models::MachineConfig& mc = models::machine_config(arch ? *arch : isa::Arch::Sm100a);
  s.grid = get_dim3(c, need(c, j, "", "grid", "[x, y, z] blocks"), "grid", mc.max_grid[0], std::max(mc.max_grid[1], mc.max_grid[2]));
  if (s.grid.z > mc.max_grid[2])
    c.fail("grid[2]", fmt::format("{} is out of range (legal: 1 to {})", s.grid.z, mc.max_grid[2]));
  s.block = get_dim3(c, need(c, j, "", "block", "[x, y, z] threads"), "block", mc.max_block[0], mc.max_block[1]);
  if (s.block.z > mc.max_block[2])
    c.fail("block[2]", fmt::format("{} is out of range (legal: 1 to {})", s.block.z, mc.max_block[2]));
  if (s.block.count() > mc.max_threads_per_cta)
    c.fail("block", fmt::format("{} threads per block (legal: at most {})", s.block.count(), mc.max_threads_per_cta));
  if (j.contains("cluster")) {
    const uint32_t most = mc.max_cluster_ctas_nonportable;
    s.cluster = get_dim3(c, j["cluster"], "cluster", most, most);
    s.cluster_given = true;
    // Clusters tile the grid (CUDA Programming Guide "Thread Block Clusters"); at most 16 CTAs
    // (8 portable, 16 with the non-portable attribute, which tcsim-hw sets).
    if (s.cluster.count() > most)
      c.fail("cluster", fmt::format("{} CTAs per cluster (legal: at most {}; {} portable)", s.cluster.count(), most,
                                    mc.max_cluster_ctas_portable));
    const uint32_t g[3] = {s.grid.x, s.grid.y, s.grid.z}, cl[3] = {s.cluster.x, s.cluster.y, s.cluster.z};
    for (int i = 0; i < 3; ++i)
      if (g[i] % cl[i] != 0)
        c.fail(index("cluster", static_cast<size_t>(i)),
               fmt::format("cluster dim {} does not divide grid dim {} (the grid must be a whole "
                           "number of clusters)", cl[i], g[i]));
  }
  if (j.contains("dynamic_smem_bytes"))
    s.dynamic_smem_bytes = static_cast<uint32_t>(get_uint(c, j["dynamic_smem_bytes"], "dynamic_smem_bytes", 0, UINT32_MAX));

  // At most 1 GiB (the simulator keeps the captured records in memory); both machines raise a
  // request below 512 KiB to 512 KiB (docs/printf.md "FIFO").
  if (j.contains("printf_fifo_bytes"))
    s.printf_fifo_bytes = get_uint(c, j["printf_fifo_bytes"], "printf_fifo_bytes", 1, uint64_t{1} << 30);
  if (j.contains("buffers")) {
    const Json& bs = need_object(c, j["buffers"], "buffers");
    for (const auto& [name, b] : bs.items()) s.buffers.push_back(parse_buffer(c, name, b, child("buffers", name)));
  }
  if (j.contains("tensor_maps")) {
    const Json& ts = need_object(c, j["tensor_maps"], "tensor_maps");
    for (const auto& [name, t] : ts.items())
      s.tensor_maps.push_back(parse_tensor_map(c, name, t, child("tensor_maps", name), s.buffers));
  }
  if (j.contains("args")) {
    const Json& as = j["args"];
    if (!as.is_array()) c.fail("args", fmt::format("expected a list of arguments, found {}", type_name(as)));
    for (size_t i = 0; i < as.size(); ++i) s.args.push_back(parse_arg(c, as[i], index("args", i), s, false, 0));
  }
  if (j.contains("symbols")) {
    const Json& ss = need_object(c, j["symbols"], "symbols");
    for (const auto& [name, sym] : ss.items()) {
      const std::string p = child("symbols", name);
      need_object(c, sym, p);
      check_keys(c, sym, p, {"dtype", "init"});
      SymbolSpec y;
      y.name = name;
      if (sym.contains("dtype")) {
        y.dtype = get_dtype(c, sym["dtype"], child(p, "dtype"));
        y.dtype_given = true;
      }
      y.init = parse_init(c, need(c, sym, p, "init", "how to initialise it"), child(p, "init"), /*buffer=*/false);
      s.symbols.push_back(std::move(y));
    }
  }
  if (j.contains("outputs")) {
    const Json& os = j["outputs"];
    if (!os.is_array()) c.fail("outputs", fmt::format("expected a list of buffer names, found {}", type_name(os)));
    std::set<std::string> seen;
    for (size_t i = 0; i < os.size(); ++i) {
      const std::string n = get_string(c, os[i], index("outputs", i), "a buffer name");
      if (!s.find_buffer(n)) {
        std::vector<std::string> names;
        for (const auto& x : s.buffers) names.push_back(x.name);
        c.fail(index("outputs", i), fmt::format("no buffer \"{}\" ({})", n, legal_names(names)));
      }
      if (!seen.insert(n).second) c.fail(index("outputs", i), fmt::format("\"{}\" is listed twice", n));
      s.outputs.push_back(n);
    }
  }
  return s;
}

}  // namespace

LaunchSpec parse_spec(std::string_view text, const std::string& path) {
  try {
    return parse_spec_fields(text, path);
  } catch (const nlohmann::json::exception& e) {
    // Every field is type-checked before it is read; this is the net under that rule.
    throw spec_error(path, "", "a value of an unexpected type: " + json_error_text(e.what()));
  }
}

LaunchSpec load_spec(const std::string& path) {
  std::string text;
  try {
    text = read_regular_file(path, kMaxSpecBytes);
  } catch (const InputFileError& e) {
    throw SpecError(fmt::format("{}: cannot read the launch spec: it {}", path, e.what()));
  }
  return parse_spec(text, path);
}

}  // namespace tcsim::spec
