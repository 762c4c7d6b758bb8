// Immediate post-dominators (isa/ptx/cfg.h) on hand-made control flow: if/else, a cold block after
// the join, a loop with two exits, brx.idx, a return inside a branch, an infinite loop.
#include <doctest/doctest.h>

#include "isa/ptx/cfg.h"
#include "isa/ptx/parser.h"

using namespace tcsim::isa::ptx;

namespace {

// Parses `body` as kernel k and returns the ipdoms of its instructions.
std::vector<uint32_t> ipdoms(const std::string& body) {
  auto m = parse(".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n"
                 " .reg .pred %p<4>;\n .reg .b32 %r<8>;\n" + body + "\n}\n", "cfg.ptx");
  REQUIRE_MESSAGE(m.has_value(), (m ? "" : m.error().message));
  return immediate_post_dominators(*m->find_function("k"));
}

}  // namespace

TEST_CASE("cfg: if/else joins at the first instruction after both arms") {
  auto d = ipdoms(R"(
  @%p1 bra $Lelse;      // 0
  add.s32 %r1, %r1, 1;  // 1
  bra.uni $Ljoin;       // 2
$Lelse:
  add.s32 %r1, %r1, 2;  // 3
$Ljoin:
  add.s32 %r2, %r1, 1;  // 4
  ret;                  // 5)");
  CHECK(d[0] == 4);
}

TEST_CASE("cfg: a cold block laid out after the join still post-dominates at the join") {
  auto d = ipdoms(R"(
  @%p1 bra $Lcold;      // 0
  add.s32 %r1, %r1, 1;  // 1
$Ljoin:
  add.s32 %r2, %r1, 1;  // 2
  ret;                  // 3
$Lcold:
  add.s32 %r1, %r1, 5;  // 4
  bra.uni $Ljoin;       // 5)");
  CHECK(d[0] == 2);
}

TEST_CASE("cfg: a loop with two exits reconverges after the loop; brx.idx at its join") {
  auto d = ipdoms(R"(
$Lloop:
  @%p1 bra $Lout;       // 0
  add.s32 %r1, %r1, 1;  // 1
  @%p2 bra $Lloop;      // 2
$Lout:
  add.s32 %r3, %r1, 1;  // 3
  brx.idx %r3, $Lt;     // 4
$Lt: .branchtargets $La, $Lb;
$La:
  add.s32 %r4, %r1, 1;  // 5
  bra.uni $Lj;          // 6
$Lb:
  add.s32 %r4, %r1, 2;  // 7
$Lj:
  ret;                  // 8)");
  CHECK(d[0] == 3);
  CHECK(d[2] == 3);
  CHECK(d[4] == 8);
}

TEST_CASE("cfg: a return in one arm meets only at the exit; an infinite loop has no post-dominator") {
  auto d = ipdoms(R"(
  @%p1 bra $Lr;         // 0
  add.s32 %r1, %r1, 1;  // 1
  ret;                  // 2
$Lr:
  @%p2 ret;             // 3
$Lspin:
  @%p3 bra $Lspin;      // 4
  ret;                  // 5
$Lforever:
  bra.uni $Lforever;    // 6)");
  CHECK(d[0] == kNoPostDom);
  CHECK(d[3] == kNoPostDom);
  CHECK(d[4] == 5);
  CHECK(d[6] == kNoPostDom);
}
