#include <doctest/doctest.h>

#include "isa/arch.h"
#include "isa/dtype.h"
#include "isa/mma_kind.h"

using namespace tcsim::isa;

TEST_CASE("every dtype, arch and kind round-trips through its name") {
  for (const auto& i : kDTypes) {
    auto t = parse_dtype(i.name);
    REQUIRE(t.has_value());
    CHECK(*t == i.type);
    CHECK(dtype_name(i.type) == i.name);
  }
  CHECK_FALSE(parse_dtype("e9m9").has_value());
  for (Arch a : {Arch::Sm90a, Arch::Sm100a, Arch::Sm100f, Arch::Sm103a})
    CHECK(parse_arch(arch_name(a)) == a);
  for (const auto& k : kMmaKinds) CHECK(parse_kind(k.name) == k.kind);
  CHECK(dtype_bits(DType::E2M3) == 6);
  CHECK(dtype_bits(DType::E2M1) == 4);
}
