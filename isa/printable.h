// Text that reaches a user: every diagnostic tcsim prints passes through here, so that hostile input
// (a 1M-character identifier, raw control bytes in a PTX file, a binary file given as a spec) gives a
// short line a terminal shows as written, never a megabyte of output or escape sequences that
// re-program the terminal. The one place for message sanitising (docs/hostile_input.md).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tcsim::isa {

// Limits of a printed diagnostic.
inline constexpr size_t kMaxTokenChars = 160;   // a run of non-blank characters longer: elided
inline constexpr size_t kMaxLineChars = 2000;   // one line of a message
inline constexpr size_t kMaxMessageLines = 400; // lines of a multi-line report (deadlock, watchdog)

// One token (a name, a literal, a quoted piece of input) as it may be shown inside a message: control
// bytes, DEL and bytes that are not valid UTF-8 become \xNN (\n, \t, \r as \n, \t, \r), and a token
// longer than `max_chars` keeps its head and tail around "...(N bytes)...".
std::string printable_token(std::string_view s, size_t max_chars = kMaxTokenChars);

// A whole diagnostic, possibly several lines: each line made printable as above (newlines kept as
// line breaks, tabs kept), every run of non-blank characters longer than kMaxTokenChars elided, each
// line cut at kMaxLineChars and the message at kMaxMessageLines ("... (N more lines)").
std::string bounded_message(std::string_view msg);

}  // namespace tcsim::isa
