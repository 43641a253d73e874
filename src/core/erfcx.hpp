// The scaled complementary error function erfcx(x) = exp(x^2) erfc(x). It lets the Gaussian
// profile be evaluated at large epsilon without overflowing e^epsilon or underflowing erfc.
#pragma once

namespace pgdp {

double erfcx(double x);
long double erfcx(long double x);

}  // namespace pgdp
