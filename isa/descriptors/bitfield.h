// Bit ranges as data (STYLE.md "Descriptors: bit ranges as data").
//
// A descriptor layout is one X-macro list with one row per field:
//
//   #define TCSIM_FOO_FIELDS(X)  <backslash-newline>
//     X(start_address, 0, 14, "start address >> 4")  <backslash-newline>
//     X(layout,       61,  3, "swizzle mode")
//   TCSIM_DEFINE_BITFIELDS(FooBits, uint64_t, TCSIM_FOO_FIELDS);
//
// From that list the macro generates a struct holding the raw word with
//   - the field table `kFields` (name, first bit, width, meaning) that drives to_string/JSON,
//   - `kOwnedMask` / `kReservedMask` (every bit no field owns is reserved),
//   - a static_assert that no two fields overlap and none leaves the word,
//   - per field: `name()` (read), `set_name(v)` (write; false if v does not fit the width) and
//     `name_field` (the BitField row, for diagnostics).
// So a layout is written once and cannot disagree with itself (CUTLASS once shipped comments that
// disagreed with its own bit fields).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tcsim::isa {

struct BitField {
  std::string_view name;
  int first;                 // lowest bit
  int width;                 // number of bits
  std::string_view meaning;  // what the field holds (units, encoding), shown by to_string

  constexpr int last() const { return first + width - 1; }
  constexpr uint64_t low_mask() const { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }
  constexpr uint64_t mask() const { return low_mask() << first; }
  constexpr uint64_t get(uint64_t raw) const { return (raw >> first) & low_mask(); }
  constexpr bool fits(uint64_t v) const { return (v & ~low_mask()) == 0; }
  constexpr uint64_t put(uint64_t raw, uint64_t v) const { return (raw & ~mask()) | ((v & low_mask()) << first); }
};

// True when every field lies inside a `word_bits`-bit word, has a positive width, and no two fields
// share a bit.
template <std::size_t N>
constexpr bool bitfields_disjoint(const BitField (&fields)[N], int word_bits) {
  uint64_t seen = 0;
  for (const BitField& f : fields) {
    if (f.width <= 0 || f.first < 0 || f.first + f.width > word_bits) return false;
    if (seen & f.mask()) return false;
    seen |= f.mask();
  }
  return true;
}

template <std::size_t N>
constexpr uint64_t bitfields_mask(const BitField (&fields)[N]) {
  uint64_t m = 0;
  for (const BitField& f : fields) m |= f.mask();
  return m;
}

// One line per field, in table order: "  name  [last:first]  = value (0x..)  meaning".
std::string bitfields_to_string(std::span<const BitField> fields, uint64_t raw);
// {"name": value, ...} with the raw field values (unsigned integers), in table order.
std::string bitfields_to_json(std::span<const BitField> fields, uint64_t raw);
// "bits 14-15, 30-31" for the set bits of `mask` (runs collapsed); "" when mask is 0.
std::string bit_ranges_text(uint64_t mask);

}  // namespace tcsim::isa

#define TCSIM_BITFIELD_ROW_(name, first, width, meaning) ::tcsim::isa::BitField{#name, first, width, meaning},

#define TCSIM_BITFIELD_ACCESSORS_(name, first, width, meaning)                                   \
  static constexpr ::tcsim::isa::BitField name##_field{#name, first, width, meaning};            \
  constexpr Word name() const { return static_cast<Word>(name##_field.get(raw)); }               \
  constexpr bool set_##name(uint64_t v) {                                                        \
    if (!name##_field.fits(v)) return false;                                                     \
    raw = static_cast<Word>(name##_field.put(raw, v));                                           \
    return true;                                                                                 \
  }

// Defines `struct Type { Word raw; ... }` from the X-macro list FIELDS (see the file comment).
#define TCSIM_DEFINE_BITFIELDS(Type, WordT, FIELDS)                                               \
  struct Type {                                                                                   \
    using Word = WordT;                                                                           \
    static constexpr int kBits = 8 * static_cast<int>(sizeof(WordT));                             \
    static constexpr ::tcsim::isa::BitField kFields[] = {FIELDS(TCSIM_BITFIELD_ROW_)};            \
    static_assert(::tcsim::isa::bitfields_disjoint(kFields, kBits),                               \
                  #Type ": bit fields overlap or do not fit the word");                           \
    static constexpr Word kOwnedMask = static_cast<Word>(::tcsim::isa::bitfields_mask(kFields));  \
    static constexpr Word kReservedMask = static_cast<Word>(~kOwnedMask);                         \
    Word raw = 0;                                                                                 \
    FIELDS(TCSIM_BITFIELD_ACCESSORS_)                                                             \
    constexpr Word reserved_bits() const { return raw & kReservedMask; }                          \
    std::string to_string() const { return ::tcsim::isa::bitfields_to_string(kFields, raw); }     \
    std::string to_json() const { return ::tcsim::isa::bitfields_to_json(kFields, raw); }         \
  }
