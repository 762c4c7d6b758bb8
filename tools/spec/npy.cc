#include "tools/spec/npy.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "tools/spec/spec_error.h"

namespace tcsim::spec {
static_assert(std::endian::native == std::endian::little,
              "tcsim's device images and .npy data are little-endian; a big-endian host needs swaps");

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SpecError(fmt::format("{}: not a usable .npy file: {}", path, what));
}

// A tiny reader for the header's Python literal: only the three keys NumPy writes.
struct HeaderParser {
  std::string_view s;
  size_t p = 0;
  const std::string& path;

  void ws() {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < s.size() && s[p] == c) {
      ++p;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(path, fmt::format("header: expected '{}' at offset {} in \"{}\"", c, p, s));
  }
  std::string str() {
    ws();
    if (p >= s.size() || (s[p] != '\'' && s[p] != '"'))
      fail(path, fmt::format("header: expected a string at offset {} in \"{}\"", p, s));
    const char q = s[p++];
    const size_t b = p;
    while (p < s.size() && s[p] != q) ++p;
    if (p >= s.size()) fail(path, "header: unterminated string");
    return std::string(s.substr(b, p++ - b));
  }
  uint64_t integer() {
    ws();
    const size_t b = p;
    uint64_t v = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      if (v > (UINT64_MAX - 9) / 10) fail(path, "header: shape value too large");
      v = v * 10 + static_cast<uint64_t>(s[p++] - '0');
    }
    if (p == b) fail(path, fmt::format("header: expected an integer at offset {} in \"{}\"", p, s));
    if (p < s.size() && s[p] == 'L') ++p;  // Python 2 long suffix
    return v;
  }
};

struct ParsedDescr {
  bool swap;
  uint32_t size;
};

ParsedDescr parse_descr(const std::string& path, std::string& d) {
  if (d.size() < 3) fail(path, fmt::format("unsupported dtype descr '{}'", d));
  const char order = d[0];
  const char kind = d[1];
  if (order == '=') d[0] = '<';
  if (order != '<' && order != '>' && order != '|' && order != '=')
    fail(path, fmt::format("unsupported byte order in descr '{}'", d));
  if (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'b' && kind != 'V' && kind != 'c')
    fail(path, fmt::format("unsupported dtype descr '{}' (expected an integer, float, bool or "
                           "void type such as '<f4', '|u1')", d));
  uint32_t size = 0;
  for (size_t i = 2; i < d.size(); ++i) {
    if (d[i] < '0' || d[i] > '9' || size > 1u << 20)
      fail(path, fmt::format("unsupported dtype descr '{}'", d));
    size = size * 10 + static_cast<uint32_t>(d[i] - '0');
  }
  if (size == 0) fail(path, fmt::format("dtype descr '{}' has no size", d));
  return {order == '>' && size > 1, size};
}

std::string read_prefix(std::ifstream& f, const std::string& path, size_t n) {
  std::string b(n, '\0');
  f.read(b.data(), static_cast<std::streamsize>(n));
  if (static_cast<size_t>(f.gcount()) != n) fail(path, "file is truncated");
  return b;
}

NpyHeader parse_header(std::ifstream& f, const std::string& path) {
  if (!f) throw SpecError(fmt::format("{}: cannot open the file", path));
  const std::string pre = read_prefix(f, path, 8);
  if (pre.compare(0, 6, kMagic) != 0) fail(path, "no \\x93NUMPY magic at the start");
  const int major = static_cast<unsigned char>(pre[6]);
  uint64_t hlen = 0, off = 0;
  if (major == 1) {
    const std::string l = read_prefix(f, path, 2);
    hlen = static_cast<unsigned char>(l[0]) | static_cast<unsigned>(static_cast<unsigned char>(l[1])) << 8;
    off = 10;
  } else if (major == 2 || major == 3) {
    const std::string l = read_prefix(f, path, 4);
    for (int i = 3; i >= 0; --i) hlen = hlen << 8 | static_cast<unsigned char>(l[i]);
    off = 12;
  } else {
    fail(path, fmt::format("format version {}.{} (this reader knows 1.0, 2.0, 3.0)", major,
                           static_cast<int>(static_cast<unsigned char>(pre[7]))));
  }
  if (hlen > (1u << 24)) fail(path, "header length is implausible");
  const std::string text = read_prefix(f, path, hlen);

  NpyHeader h;
  h.data_offset = off + hlen;
  std::optional<bool> fortran;
  bool have_descr = false, have_shape = false;
  HeaderParser hp{text, 0, path};
  hp.expect('{');
  while (!hp.eat('}')) {
    const std::string key = hp.str();
    hp.expect(':');
    if (key == "descr") {
      hp.ws();
      if (hp.p < text.size() && text[hp.p] == '[')
        fail(path, "structured (record) dtypes are not supported");
      h.descr = hp.str();
      have_descr = true;
    } else if (key == "fortran_order") {
      hp.ws();
      if (text.compare(hp.p, 4, "True") == 0) {
        fortran = true;
        hp.p += 4;
      } else if (text.compare(hp.p, 5, "False") == 0) {
        fortran = false;
        hp.p += 5;
      } else {
        fail(path, "header: fortran_order is neither True nor False");
      }
    } else if (key == "shape") {
      hp.expect('(');
      while (!hp.eat(')')) {
        h.shape.push_back(hp.integer());
        if (!hp.eat(',')) {
          hp.expect(')');
          break;
        }
      }
      have_shape = true;
    } else {
      fail(path, fmt::format("header: unknown key '{}'", key));
    }
    if (!hp.eat(',')) {
      hp.expect('}');
      break;
    }
  }
  if (!have_descr || !have_shape || !fortran)
    fail(path, "header lacks one of 'descr', 'fortran_order', 'shape'");
  if (*fortran && h.shape.size() > 1)
    fail(path, "Fortran-order (column-major) arrays are not supported: save with "
               "numpy.ascontiguousarray");
  h.item_size = parse_descr(path, h.descr).size;
  return h;
}

}  // namespace

uint64_t NpyHeader::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d != 0 && n > UINT64_MAX / d) return UINT64_MAX;
    n *= d;
  }
  return n;
}

NpyHeader read_npy_header(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return parse_header(f, path);
}

NpyArray read_npy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  NpyArray a;
  a.header = parse_header(f, path);
  std::string descr = a.header.descr;
  const ParsedDescr pd = parse_descr(path, descr);
  const uint64_t count = a.header.count();
  if (count != 0 && count > (uint64_t{1} << 40) / a.header.item_size)
    fail(path, "the array is larger than 1 TiB");
  const uint64_t bytes = count * a.header.item_size;
  a.data.resize(bytes);
  f.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(bytes));
  if (static_cast<uint64_t>(f.gcount()) != bytes)
    fail(path, fmt::format("data is truncated: the header promises {} bytes ({} elements of {} "
                           "bytes), the file has {}", bytes, count, a.header.item_size, f.gcount()));
  if (f.peek() != std::ifstream::traits_type::eof())
    fail(path, fmt::format("trailing bytes after the {} data bytes the header promises", bytes));
  if (pd.swap) {
    for (uint64_t i = 0; i < count; ++i)
      std::reverse(a.data.begin() + static_cast<std::ptrdiff_t>(i * pd.size),
                   a.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * pd.size));
    a.header.descr[0] = '<';
  }
  return a;
}

std::string npy_header_bytes(const std::string& descr, const std::vector<uint64_t>& shape) {
  std::string dims;
  for (uint64_t d : shape) dims += fmt::format("{}, ", d);
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // (5,) for one dim, (2, 3) for more
  else if (shape.size() == 1) dims.resize(dims.size() - 1);
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Pad with spaces, end with '\n', so that magic(6)+version(2)+len(2)+header is a multiple of 64.
  const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string h(kMagic);
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

void write_npy(const std::string& path, const std::string& descr,
               const std::vector<uint64_t>& shape, const void* data, uint64_t bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw SpecError(fmt::format("{}: cannot create the file", path));
  const std::string h = npy_header_bytes(descr, shape);
  f.write(h.data(), static_cast<std::streamsize>(h.size()));
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  f.close();
  if (!f) throw SpecError(fmt::format("{}: write failed", path));
}

}  // namespace tcsim::spec
