// The Boost.Math policy of the core: a double argument is evaluated in double, without Boost's
// default promotion to long double. The closed forms and erfcx need only double accuracy
// (~1e-15 relative) and are on the calibrations' hot path (each must stay under ~100 ns).
// Internal to src/core.
#pragma once

#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/erf.hpp>

namespace pgdp::detail {

using NoPromotion = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

// erfc under NoPromotion.
template <typename Real>
Real fast_erfc(Real x) {
    return boost::math::erfc(x, NoPromotion());
}

}  // namespace pgdp::detail
