#include "sim/units/tma_cta_state.h"

#include "sim/cta.h"

namespace tcsim::sim {

// Defined here, not in cta.cc, so that Cta needs only a forward declaration of the engines' state.
tma::TmaCtaState& Cta::tma_state() {
  if (!tma_) tma_ = std::make_shared<tma::TmaCtaState>();
  return *tma_;
}

}  // namespace tcsim::sim
