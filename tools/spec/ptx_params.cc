#include "tools/spec/ptx_params.h"

#include <cctype>
#include <charconv>

namespace tcsim::spec {
namespace {

// The text with // and /* */ comments blanked (string literals do not occur in declarations).
std::string strip_comments(std::string_view t) {
  std::string s(t);
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '/' && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') s[i++] = ' ';
    } else if (s[i] == '/' && s[i + 1] == '*') {
      const size_t e = s.find("*/", i + 2);
      const size_t end = e == std::string::npos ? s.size() : e + 2;
      for (; i < end; ++i)
        if (s[i] != '\n') s[i] = ' ';
    }
  }
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) w.push_back(s.substr(b, i - b));
  }
  return w;
}

std::optional<uint32_t> number(std::string_view s) {
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Bytes of a fundamental type name (".u64" -> 8); 0 for anything else.
uint32_t type_bytes(std::string_view t) {
  if (t.size() < 3 || t[0] != '.') return 0;
  const char k = t[1];
  if (k != 'b' && k != 'u' && k != 's' && k != 'f') return 0;
  const auto bits = number(t.substr(2));
  if (!bits || (*bits != 8 && *bits != 16 && *bits != 32 && *bits != 64)) return 0;
  return *bits / 8;
}

std::optional<ParamInfo> parse_param(std::string_view decl) {
  const auto w = words(decl);
  if (w.size() < 3 || w[0] != ".param") return std::nullopt;
  std::optional<uint32_t> align;
  uint32_t elem = 0;
  size_t i = 1;
  for (; i + 1 < w.size(); ++i) {
    if (w[i] == ".align" && i + 2 < w.size()) {
      const auto a = number(w[++i]);
      if (!a) return std::nullopt;
      if (!elem) align = *a;  // .align after .ptr is the pointee's alignment
    } else if (w[i] == ".ptr" || w[i] == ".global" || w[i] == ".shared" || w[i] == ".const" ||
               w[i] == ".local") {
      continue;
    } else if (const uint32_t b = type_bytes(w[i]); b && !elem) {
      elem = b;
    } else {
      return std::nullopt;
    }
  }
  if (!elem || i != w.size() - 1) return std::nullopt;
  std::string_view name = w.back();
  uint32_t count = 1;
  if (const size_t lb = name.find('['); lb != std::string_view::npos) {
    if (name.back() != ']') return std::nullopt;
    const auto n = number(name.substr(lb + 1, name.size() - lb - 2));
    if (!n || *n == 0) return std::nullopt;
    count = *n;
    name = name.substr(0, lb);
  }
  return ParamInfo{std::string(name), elem * count, align.value_or(elem)};
}

}  // namespace

std::optional<std::vector<ParamInfo>> ptx_entry_params(std::string_view ptx_text, std::string_view kernel) {
  const std::string s = strip_comments(ptx_text);
  size_t p = 0;
  while ((p = s.find(".entry", p)) != std::string::npos) {
    p += 6;
    size_t i = p;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != '(') ++i;
    if (std::string_view(s).substr(b, i - b) != kernel) continue;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::vector<ParamInfo> out;
    if (i >= s.size() || s[i] != '(') return out;  // no parameter list: no parameters
    const size_t close = s.find(')', i);
    if (close == std::string::npos) return std::nullopt;
    const std::string_view list = std::string_view(s).substr(i + 1, close - i - 1);
    size_t q = 0;
    while (q <= list.size()) {
      size_t comma = list.find(',', q);
      if (comma == std::string_view::npos) comma = list.size();
      const std::string_view decl = list.substr(q, comma - q);
      if (!words(decl).empty()) {
        auto prm = parse_param(decl);
        if (!prm) return std::nullopt;
        out.push_back(std::move(*prm));
      }
      q = comma + 1;
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace tcsim::spec
