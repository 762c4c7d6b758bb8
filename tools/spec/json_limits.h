// JSON input with limits: every JSON file tcsim reads (launch specs, manifests) goes through
// parse_json_bounded, which refuses nesting deeper than kMaxJsonDepth while parsing (through
// nlohmann's parser callback, before a deep value is ever built) and turns the library's exceptions
// into a SpecError naming the file, without the "[json.exception...]" text.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tools/spec/spec_error.h"

namespace tcsim::spec {

// No launch spec needs more than 6 levels (struct arguments nest a few more); 64 leaves room for any
// hand-written spec and keeps every recursive walk of the value (dump, copy, destruction) shallow.
inline constexpr int kMaxJsonDepth = 64;
// Members of one object: nlohmann's ordered_json (file order is kept: buffers are allocated as
// written) inserts in linear time, so an object of 100,000 buffers would take minutes to parse.
inline constexpr size_t kMaxJsonObjectMembers = 4096;

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
inline std::string json_error_text(const char* what) {
  std::string w = what;
  if (w.rfind("[json.exception.", 0) == 0) {
    const size_t k = w.find("] ");
    if (k != std::string::npos) w = w.substr(k + 2);
  }
  return w;
}

template <class Json>
Json parse_json_bounded(std::string_view text, const std::string& file) {
  struct TooDeep {
    int depth;
  };
  struct TooWide {};
  using Ev = nlohmann::json::parse_event_t;
  std::vector<size_t> members;  // per open object
  auto cb = [&members](int depth, Ev ev, Json&) {
    if ((ev == Ev::object_start || ev == Ev::array_start) && depth >= kMaxJsonDepth) throw TooDeep{depth + 1};
    if (ev == Ev::object_start) members.push_back(0);
    if (ev == Ev::object_end && !members.empty()) members.pop_back();
    if (ev == Ev::key && !members.empty() && ++members.back() > kMaxJsonObjectMembers) throw TooWide{};
    return true;
  };
  try {
    return Json::parse(text, cb);
  } catch (const TooDeep& t) {
    throw spec_error(file, "", fmt::format("not a usable JSON file: values nest more than {} levels deep "
                                           "(at least {})", kMaxJsonDepth, t.depth));
  } catch (const TooWide&) {
    throw spec_error(file, "", fmt::format("not a usable JSON file: an object has more than {} members",
                                           kMaxJsonObjectMembers));
  } catch (const nlohmann::json::exception& e) {
    throw spec_error(file, "", "not valid JSON: " + json_error_text(e.what()));
  }
}

}  // namespace tcsim::spec
