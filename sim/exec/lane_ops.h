// Helpers shared by family files: reading a lane's 64-bit slot as a typed value and back, and
// dispatching a template over PTX types at bind time.
#pragma once
#include <bit>
#include <cstdint>
#include <type_traits>

#include "isa/ptx/types.h"
#include "sim/exec/bind.h"
#include "sim/exec/exec.h"

namespace tcsim::sim {

// The low sizeof(T) bytes of a slot, as T.
template <class T>
inline T as(uint64_t v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(static_cast<uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(v);
  else return static_cast<T>(v);
}

// A value stored zero-extended in a 64-bit slot.
template <class T>
inline uint64_t bits(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(v);
  else if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
  else return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

template <class T>
using U = std::make_unsigned_t<T>;

// Expands `F<T>` for the integer type of a PTX type (.bN treated as unsigned). Yields nullptr for
// other types. Usage: ExecFn fn = INT_TYPE_SWITCH(t, exec_add);
#define TCSIM_INT_TYPE_SWITCH(t, F)                                         \
  ([&]() -> ::tcsim::sim::ExecFn {                                          \
    using ::tcsim::isa::ptx::Type;                                          \
    switch (t) {                                                            \
      case Type::U8: case Type::B8: return &F<uint8_t>;                     \
      case Type::S8: return &F<int8_t>;                                     \
      case Type::U16: case Type::B16: return &F<uint16_t>;                  \
      case Type::S16: return &F<int16_t>;                                   \
      case Type::U32: case Type::B32: return &F<uint32_t>;                  \
      case Type::S32: return &F<int32_t>;                                   \
      case Type::U64: case Type::B64: return &F<uint64_t>;                  \
      case Type::S64: return &F<int64_t>;                                   \
      default: return nullptr;                                              \
    }                                                                       \
  }())

}  // namespace tcsim::sim
