// Diagnostics shared by every layer: a rule violation (with the PTX ISA section that states the
// rule) and a value-or-error result type for decoders (they never assert on bad input).
#pragma once
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tcsim::isa {

// One broken rule. `section` is the PTX ISA (or driver API) section that states it, so a user can
// look it up; `message` names the offending fields and their values, and what would be legal.
struct Violation {
  std::string section;
  std::string message;
  std::string to_string() const { return message + " [" + section + "]"; }
};
using Violations = std::vector<Violation>;

struct Error {
  std::string message;
};

// std::expected-style result (C++20 has none; Debian 12's GCC 12 ships <expected> only for C++23).
template <class T>
class Expected {
 public:
  Expected(T v) : v_(std::move(v)) {}
  Expected(Error e) : v_(std::move(e)) {}
  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace tcsim::isa
