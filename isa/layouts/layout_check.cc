#include "isa/layouts/layout_check.h"

#include <algorithm>
#include <array>

#include <fmt/core.h>

#include "isa/layouts/tma_layout.h"

namespace tcsim::isa {
namespace {

uint64_t key(SmemLocation l) { return uint64_t(l.byte) * 8 + l.bit; }

// Which box element TMA put at each (byte, bit): the inverse of the TMA image.
class TmaInverse {
 public:
  explicit TmaInverse(const TmaLayout& t) {
    for (uint32_t i1 = 0; i1 < t.extent(1); ++i1)
      for (uint32_t i0 = 0; i0 < t.extent(0); ++i0)
        v_.push_back({key(t.locate(i0, i1)), i0 | (i1 << 16)});
    std::sort(v_.begin(), v_.end());
  }
  std::optional<std::pair<uint32_t, uint32_t>> find(SmemLocation l) const {
    auto it = std::lower_bound(v_.begin(), v_.end(), std::pair<uint64_t, uint32_t>{key(l), 0});
    if (it == v_.end() || it->first != key(l)) return std::nullopt;
    return std::pair<uint32_t, uint32_t>{it->second & 0xFFFF, it->second >> 16};
  }

 private:
  std::vector<std::pair<uint64_t, uint32_t>> v_;
};

// (mn, k) <-> box (i0, i1), by major (see the header).
std::pair<uint32_t, uint32_t> to_mn_k(Major m, uint32_t i0, uint32_t i1) {
  return m == Major::K ? std::pair{i1, i0} : std::pair{i0, i1};
}

struct Candidate {
  SmemDesc desc;
  Major major;
};

// Reads every (mn, k) of the box through `c`; counts (and lists) the wrong ones. With
// `stop_at_first`, returns 1 at the first wrong element. Returns nullopt if `c` has no layout.
std::optional<uint64_t> count_wrong(const TmaMmaTile& tile, const TmaLayout& tma,
                                    const Candidate& c, bool stop_at_first,
                                    const TmaInverse* inv = nullptr,
                                    std::vector<LayoutMismatch>* list = nullptr,
                                    size_t max_listed = 0) {
  auto plan = CanonicalLayout::make(c.desc, tile.elem, c.major);
  if (!plan) return std::nullopt;
  const CanonicalLayout& p = *plan;
  const uint32_t e0 = tma.extent(0), e1 = tma.extent(1);
  // Iterate in (mn, k) order: mn outer.
  const uint32_t n_mn = c.major == Major::K ? e1 : e0, n_k = c.major == Major::K ? e0 : e1;
  const uint32_t max_k = p.max_k() ? p.max_k() : n_k;
  uint64_t wrong = 0;
  for (uint32_t mn = 0; mn < n_mn; ++mn)
    for (uint32_t k = 0; k < n_k; ++k) {
      const uint32_t i0 = c.major == Major::K ? k : mn, i1 = c.major == Major::K ? mn : k;
      std::optional<SmemLocation> at;
      if (k < max_k) {
        at = p.locate(mn, k);
        if (*at == tma.locate(i0, i1)) continue;
      }
      ++wrong;
      if (stop_at_first) return wrong;
      if (list && list->size() < max_listed) {
        LayoutMismatch m{mn, k, at, std::nullopt};
        if (at && inv)
          if (auto f = inv->find(*at)) m.found = to_mn_k(c.major, f->first, f->second);
        list->push_back(m);
      }
    }
  return wrong;
}

bool consistent(const TmaMmaTile& tile, const TmaLayout& tma, const Candidate& c) {
  auto w = count_wrong(tile, tma, c, true);
  return w && *w == 0;
}

enum class Field { Layout, BaseOffset, Sbo, Lbo, Major };

std::string tma_swizzle_words(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::None: return "no swizzle";
    case TmaSwizzle::B32: return "32B swizzle";
    case TmaSwizzle::B64: return "64B swizzle";
    case TmaSwizzle::B128: return "128B swizzle";
    case TmaSwizzle::B128Atom32B: return "128B swizzle with 32-byte atoms";
    case TmaSwizzle::B128Atom32BFlip8B: return "128B swizzle with 32-byte atoms and 8-byte flip";
    case TmaSwizzle::B128Atom64B: return "128B swizzle with 64-byte atoms";
  }
  return "?";
}

// What SBO / LBO measure for this major and layout (PTX §9.7.16.3.1), as "the tile's ... every".
std::string offset_role(Field f, Major major, SwizzleMode layout, ElementFormat e) {
  const bool swz = layout != SwizzleMode::None;
  const uint32_t w = swizzle_bits(layout).span_bytes();
  if (major == Major::K) {
    if (f == Field::Sbo) return "groups of 8 MN rows repeat every";
    return swz ? "K chunks (unused field for K-major swizzled layouts) repeat every"
               : "16-byte K chunks of a row are apart by";
  }
  if (!swz)
    return f == Field::Sbo ? fmt::format("{}-element MN chunks repeat every", e.per_16b)
                           : "groups of 8 K rows repeat every";
  if (f == Field::Sbo)
    return fmt::format("groups of {} K rows repeat every",
                       layout == SwizzleMode::B128Base32B ? 4 : 8);
  return fmt::format("{}-byte MN atoms repeat every", w);
}

std::string describe_change(Field f, const TmaMmaTile& tile, const Candidate& from,
                            const Candidate& to) {
  switch (f) {
    case Field::Layout: {
      const auto want = mma_layout_for(tile.tma_swizzle);
      if (want && *want == to.desc.layout)
        return fmt::format("descriptor layout {}, tile written with {}: use {}",
                           layout_label(from.desc.layout), tma_swizzle_words(tile.tma_swizzle),
                           layout_label(to.desc.layout));
      return fmt::format("descriptor layout {} does not match the tile (written with {}): use {}",
                         layout_label(from.desc.layout), tma_swizzle_words(tile.tma_swizzle),
                         layout_label(to.desc.layout));
    }
    case Field::BaseOffset:
      if (to.desc.base_offset == 0)
        return fmt::format("base_offset {} but TMA writes with the absolute address pattern "
                           "(phase = address bits 7-9, measured on H200): use 0",
                           from.desc.base_offset);
      return fmt::format("base_offset {}: use {}", from.desc.base_offset, to.desc.base_offset);
    case Field::Sbo:
      return fmt::format("SBO {} B but the tile's {} {} B: use SBO {} B", from.desc.sbo,
                         offset_role(f, to.major, to.desc.layout, tile.elem), to.desc.sbo,
                         to.desc.sbo);
    case Field::Lbo:
      return fmt::format("LBO {} B but the tile's {} {} B: use LBO {} B", from.desc.lbo,
                         offset_role(f, to.major, to.desc.layout, tile.elem), to.desc.lbo,
                         to.desc.lbo);
    case Field::Major:
      return fmt::format("the MMA reads the operand {}-major but the tile is {}-major (box dim0 = "
                         "{}): set the operand's transpose bit in the instruction descriptor to "
                         "{} (or use --major {})",
                         from.major == Major::K ? "K" : "MN", to.major == Major::K ? "K" : "MN",
                         to.major == Major::K ? "K" : "MN", to.major == Major::K ? 0 : 1,
                         major_name(to.major));
  }
  return "";
}

// Whether the descriptor field matters for this box at all (varying an unused field is no fix).
bool field_used(Field f, const TmaMmaTile& tile, const TmaLayout& tma, const Candidate& c) {
  const uint32_t n_mn = c.major == Major::K ? tma.extent(1) : tma.extent(0);
  const uint32_t n_k = c.major == Major::K ? tma.extent(0) : tma.extent(1);
  const uint32_t T = tile.elem.per_16b;
  const bool swz = c.desc.layout != SwizzleMode::None;
  const uint32_t atom_mn = swizzle_bits(c.desc.layout).span_bytes() / 16 * T;
  const uint32_t k_rows = c.desc.layout == SwizzleMode::B128Base32B ? 4 : 8;
  switch (f) {
    case Field::BaseOffset: return swz;
    case Field::Sbo:
      if (c.major == Major::K) return n_mn > 8;
      return swz ? n_k > k_rows : n_mn > T;
    case Field::Lbo:
      if (c.major == Major::K) return !swz && n_k > T;
      return swz ? n_mn > atom_mn : n_k > 8;
    default: return true;
  }
}

std::vector<uint32_t> offset_candidates(uint32_t pitch) {
  std::vector<uint32_t> v;
  for (uint32_t x = 16; x <= 4096; x += 16) v.push_back(x);
  for (uint32_t x = 16384; x < (1u << 18); x *= 2) v.push_back(x);
  for (uint32_t j = 1; pitch * j < (1u << 18) && j <= 256; ++j) v.push_back(pitch * j);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// All values to try for field f (current value excluded), in order of likelihood.
std::vector<Candidate> variations(Field f, const TmaMmaTile& tile, const Candidate& c,
                                  const std::vector<uint32_t>& offsets) {
  std::vector<Candidate> out;
  auto with = [&](auto mutate) {
    Candidate n = c;
    mutate(n);
    out.push_back(n);
  };
  switch (f) {
    case Field::Layout: {
      std::vector<SwizzleMode> order;
      if (auto want = mma_layout_for(tile.tma_swizzle)) order.push_back(*want);
      for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                            SwizzleMode::B128, SwizzleMode::B128Base32B})
        if (std::find(order.begin(), order.end(), m) == order.end()) order.push_back(m);
      for (SwizzleMode m : order) {
        if (m == c.desc.layout) continue;
        if (m == SwizzleMode::B128Base32B && !tile.has_base32b) continue;
        with([&](Candidate& n) { n.desc.layout = m; });
      }
      break;
    }
    case Field::BaseOffset:
      for (uint8_t b = 0; b < 8; ++b)
        if (b != c.desc.base_offset) with([&](Candidate& n) { n.desc.base_offset = b; });
      break;
    case Field::Sbo:
      for (uint32_t x : offsets)
        if (x != c.desc.sbo) with([&](Candidate& n) { n.desc.sbo = x; });
      break;
    case Field::Lbo:
      for (uint32_t x : offsets)
        if (x != c.desc.lbo) with([&](Candidate& n) { n.desc.lbo = x; });
      break;
    case Field::Major:
      with([&](Candidate& n) { n.major = c.major == Major::K ? Major::MN : Major::K; });
      break;
  }
  return out;
}

std::optional<LayoutFix> search_fix(const TmaMmaTile& tile, const TmaLayout& tma,
                                    const Candidate& orig) {
  const auto offsets = offset_candidates(tma.row_pitch());
  // Most likely first: a descriptor that is right for the other major-ness points at the
  // instruction descriptor's transpose bit rather than at a coincidental SBO/LBO value.
  constexpr std::array<Field, 5> kFields = {Field::Major, Field::Layout, Field::BaseOffset,
                                            Field::Sbo, Field::Lbo};
  for (Field f : kFields) {
    if (!field_used(f, tile, tma, orig)) continue;
    for (const Candidate& c : variations(f, tile, orig, offsets))
      if (consistent(tile, tma, c))
        return LayoutFix{describe_change(f, tile, orig, c), c.desc, c.major};
  }
  for (size_t a = 0; a < kFields.size(); ++a) {
    if (!field_used(kFields[a], tile, tma, orig)) continue;
    for (size_t b = a + 1; b < kFields.size(); ++b)
      for (const Candidate& c1 : variations(kFields[a], tile, orig, offsets)) {
        if (!field_used(kFields[b], tile, tma, c1)) continue;
        for (const Candidate& c2 : variations(kFields[b], tile, c1, offsets))
          if (consistent(tile, tma, c2))
            return LayoutFix{describe_change(kFields[a], tile, orig, c1) + "; and " +
                                 describe_change(kFields[b], tile, c1, c2),
                             c2.desc, c2.major};
      }
  }
  return std::nullopt;
}

// No small change fixes it: say what does not fit, as precisely as the geometry allows.
std::string explain_without_fix(const TmaMmaTile& tile, const TmaLayout& tma,
                                const Candidate& orig) {
  std::vector<std::string> why;
  if (const auto want = mma_layout_for(tile.tma_swizzle); want && *want != orig.desc.layout)
    why.push_back(fmt::format("descriptor layout {}, tile written with {} (its layout is {})",
                              layout_label(orig.desc.layout), tma_swizzle_words(tile.tma_swizzle),
                              layout_label(*want)));
  if (!mma_layout_for(tile.tma_swizzle))
    why.push_back(fmt::format("TMA {} has no tcgen05/wgmma descriptor counterpart (they read "
                              "16-byte atoms, or 32-byte atoms in MN-major SWIZZLE_128B_BASE32B)",
                              tma_swizzle_words(tile.tma_swizzle)));
  if (tile.tma_swizzle == TmaSwizzle::None && tma.row_pitch() > 16)
    why.push_back(fmt::format("TMA wrote {}-byte rows without swizzle (row-major); a SWIZZLE_NONE "
                              "descriptor reads 8 x 16-byte core matrices, so it needs a box 16 "
                              "bytes wide (e.g. a 3-D box) — or write with a {}-byte swizzle",
                              tma.row_pitch(), std::min(tma.row_pitch(), 128u)));
  if (tile.tma_swizzle == TmaSwizzle::B128Atom32B && orig.major == Major::K)
    why.push_back("128B swizzle with 32-byte atoms is readable only MN-major "
                  "(SWIZZLE_128B_BASE32B, tf32)");
  if (auto plan = CanonicalLayout::make(orig.desc, tile.elem, orig.major);
      plan && plan->max_k()) {
    const uint32_t nk = orig.major == Major::K ? tma.extent(0) : tma.extent(1);
    if (nk > plan->max_k())
      why.push_back(fmt::format("the box holds {} elements along K per row but one K-major {} "
                                "descriptor reads only {} ({} bytes): step the start address per "
                                "{}-byte K slice",
                                nk, layout_label(orig.desc.layout), plan->max_k(),
                                plan->row_bytes(), plan->row_bytes()));
  }
  if (why.empty())
    why.push_back("no change of one or two descriptor fields (layout, base_offset, SBO, LBO) or "
                  "of the major-ness makes the MMA read the tile TMA wrote");
  std::string s;
  for (const auto& w : why) s += (s.empty() ? "" : "; ") + w;
  return s;
}

}  // namespace

Expected<LayoutCheckReport> check_tma_mma_layout(const TmaMmaTile& tile, size_t max_listed) {
  TmaBox box;
  box.rank = 2;
  box.box_dim = {tile.box0, tile.box1, 1, 1, 1};
  box.elem = tile.elem;
  box.swizzle = tile.tma_swizzle;
  auto tma = TmaLayout::make(box, tile.desc.start_address);
  if (!tma) return tma.error();
  auto plan = CanonicalLayout::make(tile.desc, tile.elem, tile.major);
  if (!plan) return plan.error();

  LayoutCheckReport r;
  r.tma = tma->describe();
  r.mma = plan->describe();
  r.elements = uint64_t(tma->extent(0)) * tma->extent(1);
  const Candidate orig{tile.desc, tile.major};
  const TmaInverse inv(*tma);
  r.wrong = *count_wrong(tile, *tma, orig, false, &inv, &r.first, max_listed);
  r.consistent = r.wrong == 0;
  if (r.consistent) return r;
  r.fix = search_fix(tile, *tma, orig);
  r.cause = r.fix ? r.fix->what : explain_without_fix(tile, *tma, orig);
  return r;
}

}  // namespace tcsim::isa
