// Numbers and claims printed in the papers (/work/shared/papers), checked through the core.
// Expected values are the papers' own (quoted with file / table / remark); where a paper value is
// inconsistent with its own formulas the comment says so and gives an independent 40-digit mpmath
// value (not computed by the core).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <vector>

#include "core/gaussian_calibration.hpp"
#include "core/gaussian_method.hpp"
#include "core/gaussian_profile.hpp"

namespace {

using pgdp::GaussianMethod;

// 002 eq. (2) / 001 Thm 5.9 (Dwork-2014) and 002 eq. (1) (Dwork-2006), sensitivity 1, computed
// here from the formula because the core refuses these methods for eps > 1.
double dwork2014(double eps, double delta) { return std::sqrt(2 * std::log(1.25 / delta)) / eps; }
double dwork2006(double eps, double delta) { return std::sqrt(2 * std::log(2 / delta)) / eps; }

double analytic(double eps, double delta) {
    return pgdp::gaussian_sigma(eps, delta, 1.0, GaussianMethod::Analytic);
}

// erf^{-1}(y) for 0 < y < 1 by Newton on std::erf (test helper for 002 Theorem 3).
double erfinv(double y) {
    double x = 0.5;
    for (int i = 0; i < 100; ++i) {
        const double step = (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
        x -= step;
        if (std::fabs(step) < 1e-17 * std::fabs(x)) break;
    }
    return x;
}

// Tolerance for a value printed with 4 decimals: one unit of the last digit, because Table I rounds
// most entries (0.31075 -> 0.3108) but truncates some (Dwork-2006 at eps=10, delta=1e-3:
// 0.389895 -> 0.3898).
constexpr double kTable4 = 1.0001e-4;

struct TableRow {
    const char* paper;
    bool dwork2006;  // false: Dwork-2014
    double eps, delta, resulting, least;
};

}  // namespace

// 002 Table I ("Misuse of the classical Gaussian mechanisms"): noise amounts are sigma for
// l2-sensitivity 1 (the Dwork formulas with Delta = 1 reproduce the "resulting" column). For
// Wang et al. [14] and Heikkila et al. [8] the table lists the two "least noise" values in the
// opposite order of the two epsilons; they are paired here with the epsilon they belong to.
TEST(PaperNumbers, ZhaoTableI) {
    const std::vector<TableRow> rows = {
        {"Imtiaz-Sarwate [12]", false, 10, 1e-2, 0.3108, 0.3501},
        {"Liu et al. [13]", false, 6, 0.1, 0.3746, 0.3813},
        {"Liu et al. [13]", false, 10, 0.1, 0.2248, 0.2818},
        {"Wang et al. [14]", false, 8.87, 1e-5, 0.5462, 0.5513},
        {"Wang et al. [14]", false, 9.59, 1e-5, 0.5052, 0.5172},
        {"Ermis-Cemgil [15]", false, 10, 1e-2, 0.3108, 0.3501},
        {"Ermis-Cemgil [15]", false, 10, 1e-5, 0.4845, 0.4999},
        {"Liu et al. [16]", false, 8, 0.1, 0.2809, 0.3215},
        {"Imtiaz-Sarwate [17]", false, 10, 1e-2, 0.3108, 0.3501},
        {"Jalko et al. [7]", false, 10, 1e-3, 0.3776, 0.4061},
        {"Heikkila et al. [8]", false, 10, 1e-4, 0.4344, 0.4553},
        {"Heikkila et al. [8]", false, 31.62, 1e-4, 0.1374, 0.0 /* see below */},
        {"Imtiaz-Sarwate [18]", true, 10, 1e-2, 0.0 /* see below */, 0.3501},
        {"Pyrgelis et al. [19]", true, 10, 1e-1, 0.2448, 0.2818},
        {"Wang et al. [21]", true, 10, 1e-1, 0.2448, 0.2818},
        {"Jain-Thakurta [20]", true, 10, 1e-3, 0.3898, 0.4061},
    };
    for (const TableRow& r : rows) {
        SCOPED_TRACE(std::string(r.paper) + " eps=" + std::to_string(r.eps) +
                     " delta=" + std::to_string(r.delta));
        const double used = r.dwork2006 ? dwork2006(r.eps, r.delta) : dwork2014(r.eps, r.delta);
        if (r.resulting > 0) {
            EXPECT_NEAR(used, r.resulting, kTable4);
        }
        if (r.least > 0) {
            EXPECT_NEAR(analytic(r.eps, r.delta), r.least, kTable4);
        }
        // The point of the table: the noise used is below the least noise, i.e. NOT (eps, delta)-DP.
        EXPECT_LT(used, analytic(r.eps, r.delta));
        EXPECT_GT(pgdp::gaussian_delta(used, r.eps, 1.0), r.delta);
    }
    // Two printed entries disagree with the paper's own definitions:
    // (a) Imtiaz-Sarwate [18], Dwork-2006, eps=10, delta=1e-2 prints 0.3325; the formula
    //     sqrt(2 ln 200)/10 = 0.325525 (digits transposed in the table).
    EXPECT_NEAR(dwork2006(10, 1e-2), 0.3255, kTable4);
    // (b) Heikkila et al. [8], eps=31.62, delta=1e-4 prints least noise 0.1976, but the optimum is
    //     0.194364 (40-digit mpmath bisection of the Balle-Wang condition). Checked through the
    //     core's exact profile: 0.1943 is not (31.62, 1e-4)-DP, 0.1945 is; and 0.1976 is far from tight.
    EXPECT_GT(pgdp::gaussian_delta(0.1943, 31.62, 1.0), 1e-4);
    EXPECT_LE(pgdp::gaussian_delta(0.1945, 31.62, 1.0), 1e-4);
    EXPECT_NEAR(analytic(31.62, 1e-4), 0.1944, kTable4);
}

// 002 Remark 2 / Section V iii): Dwork-2014 stops being (eps, delta)-DP for eps > G*(delta) with
// G*(1e-3)=7.47, G*(1e-4)=8.00, G*(1e-5)=8.43, G*(1e-6)=8.79; Dwork-2006 for eps > G#(delta) with
// G#(1e-3)=8.51, G#(1e-4)=8.99, G#(1e-5)=9.39, G#(1e-6)=9.73. The crossing of
// gaussian_delta(sigma_formula(eps), eps) with delta is located by bisection on the core's profile.
//
// Finding: the exact crossings for Dwork-2014 are 7.46347, 7.99099, 8.41977, 8.78209 (40-digit mpmath;
// the core must agree to 1e-4), i.e. the paper's G* are about 0.01 too high (7.47 vs 7.4635 even
// rounds differently), while its G# (exact 8.51244, 8.99266, 9.39132, 9.73275) round correctly.
// The paper's claim "not DP for eps > G*" still holds since every G* is above the exact crossing.
namespace {
double crossing(double (*sigma)(double, double), double delta) {
    double lo = 5, hi = 12;  // private at lo, not private at hi
    EXPECT_LE(pgdp::gaussian_delta(sigma(lo, delta), lo, 1.0), delta);
    EXPECT_GT(pgdp::gaussian_delta(sigma(hi, delta), hi, 1.0), delta);
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (pgdp::gaussian_delta(sigma(mid, delta), mid, 1.0) <= delta)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
}  // namespace

TEST(PaperNumbers, ZhaoRemark2Thresholds) {
    const double deltas[] = {1e-3, 1e-4, 1e-5, 1e-6};
    const double g_star[] = {7.47, 8.00, 8.43, 8.79};
    const double g_hash[] = {8.51, 8.99, 9.39, 9.73};
    const double exact_star[] = {7.4634744, 7.9909926, 8.4197713, 8.7820918};
    const double exact_hash[] = {8.5124412, 8.9926636, 9.3913215, 9.7327507};
    for (int i = 0; i < 4; ++i) {
        SCOPED_TRACE("delta=" + std::to_string(deltas[i]));
        const double cs = crossing(dwork2014, deltas[i]);
        const double ch = crossing(dwork2006, deltas[i]);
        std::cout << "[paper] delta=" << deltas[i] << " Dwork-2014 crossing " << cs << " (paper G* "
                  << g_star[i] << "), Dwork-2006 crossing " << ch << " (paper G# " << g_hash[i] << ")\n";
        // The paper's claim: not DP beyond G*: the crossing is below G*, by at most 0.015.
        EXPECT_LT(cs, g_star[i]);
        EXPECT_GT(cs, g_star[i] - 0.015);
        EXPECT_NEAR(ch, g_hash[i], 0.005);  // G# are correctly rounded to 2 decimals
        EXPECT_NEAR(cs, exact_star[i], 1e-4);
        EXPECT_NEAR(ch, exact_hash[i], 1e-4);
    }
    // The brief's example: delta = 1e-5 around 8.43.
    EXPECT_GT(pgdp::gaussian_delta(dwork2014(8.43, 1e-5), 8.43, 1.0), 1e-5);
    EXPECT_GT(pgdp::gaussian_delta(dwork2014(8.44, 1e-5), 8.44, 1.0), 1e-5);
    EXPECT_LE(pgdp::gaussian_delta(dwork2014(8.41, 1e-5), 8.41, 1.0), 1e-5);
}

// 000 Section 1: the epsilon of the standard bound (000 eq. 2), eps(1e-1, 1, 1) > 2.24, while the
// exact epsilon of sigma = 1 at delta = 0.1 (Balle-Wang, through the core) is much smaller.
TEST(PaperNumbers, VinterboSection1StandardEpsilon) {
    const double eps_standard = std::sqrt(2.0) / 1.0 * std::sqrt(std::log(5 / (4 * 0.1)));
    EXPECT_GT(eps_standard, 2.24);
    EXPECT_LT(eps_standard, 2.25);
    const double eps_exact = pgdp::gaussian_epsilon(1.0, 0.1, 1.0);
    EXPECT_LT(eps_exact, eps_standard);
    EXPECT_LE(pgdp::gaussian_delta(1.0, eps_standard, 1.0), 0.1);  // the bound is valid there
    EXPECT_LE(pgdp::gaussian_delta(1.0, eps_exact, 1.0), 0.1);
    EXPECT_GT(pgdp::gaussian_delta(1.0, eps_exact * (1 - 1e-6), 1.0), 0.1);  // and it is tight
}

// 000 Section 4: g(0.97, 0.97) < -0.005 (the sufficient condition (7) fails for the standard bound),
// but the exact condition (11) holds for eps in (0, 1): d(eps, delta) >= 0 (Figure 1b), checked
// through the core's profile; and it fails for large eps (d < 0 at eps = 10, delta = 1e-5).
TEST(PaperNumbers, VinterboSection4) {
    auto g = [](double eps, double delta) {
        const double L = std::log(5 / (4 * delta));
        const double w = std::sqrt(2.0) * (4 * L - eps) / (4 * std::sqrt(L));
        return delta - std::erfc(w / std::sqrt(2.0));  // delta - 2 (1 - Phi(w))
    };
    EXPECT_LT(g(0.97, 0.97), -0.005);
    EXPECT_GT(g(0.97, 0.97), -0.0055);  // -0.0051264 (mpmath)
    for (double eps : {1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97, 0.999, 1.0})
        for (double delta : {1e-12, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97, 0.99}) {
            const double s = dwork2014(eps, delta);
            EXPECT_LE(pgdp::gaussian_delta(s, eps, 1.0), delta) << "eps=" << eps << " delta=" << delta;
        }
    EXPECT_GT(pgdp::gaussian_delta(dwork2014(10, 1e-5), 10, 1.0), 1e-5);
}

// 000 Section 5: rho_+(1e-16) < 1.023, where rho_+ is the eps -> 0 limit of the ratio r of the
// standard bound (1) to the closed bound (9), and rho_- = r(1, delta). Checked through the core's
// classic and vinterbo_closed sigmas; Figure 2a: r >= 1.
TEST(PaperNumbers, VinterboSection5Ratio) {
    auto z = [](double d) { return std::log(1 / (4 * d * (1 - d))); };
    auto rho_plus = [&](double d) { return std::sqrt(std::log(5 / (4 * d))) / std::sqrt(z(d)); };
    auto rho_minus = [&](double d) {
        return 2 * std::sqrt(std::log(5 / (4 * d))) / (std::sqrt(z(d) + 1) + std::sqrt(z(d)));
    };
    EXPECT_LT(rho_plus(1e-16), 1.023);
    EXPECT_GT(rho_plus(1e-16), 1.022);  // 1.0224450 (mpmath)
    auto r = [](double eps, double d) {
        return pgdp::gaussian_sigma(eps, d, 1.0, GaussianMethod::Classic) /
               pgdp::gaussian_sigma(eps, d, 1.0, GaussianMethod::VinterboClosed);
    };
    EXPECT_NEAR(r(1e-9, 1e-16), rho_plus(1e-16), 1e-8);
    EXPECT_LT(r(1e-9, 1e-16), 1.023);
    for (double d : {1e-300, 1e-16, 1e-9, 1e-3, 0.1, 0.3, 0.5}) {
        EXPECT_NEAR(r(1.0, d), rho_minus(d), 1e-12 * rho_minus(d)) << d;
        for (double eps : {1e-6, 1e-3, 0.1, 0.5, 1.0}) EXPECT_GE(r(eps, d), 1.0) << eps << " " << d;
    }
}

// Orderings proven in the papers, checked on the core's sigmas:
//  002 eq. (6) and (8): DP-OPT < Mechanism 1 < Mechanism 2 (Mechanism 2 needs delta < 0.5);
//  002 eq. (10), 0 < eps <= 1: Mechanism 2 < Dwork-2014 < Dwork-2006;
//  002 Lemmas 5, 6: pDP-OPT < Mechanism 3 < Mechanism 4; Section VII: Mechanism 4 < zCDP;
//  000 Theorem 5: (8) <= (9); 002 Lemma 3 + optimality: DP-OPT <= pDP-OPT;
//  002 Theorem 2 (ii), (iii) for eps >= 0.01, delta <= 0.05;
//  002 Theorem 3: DP-OPT < 1/(2 sqrt2 erfinv(delta)), with equality in the limit eps -> 0.
// Non-strict comparisons where the papers' strict gaps fall below double resolution at extreme
// parameters (e.g. Mechanism 1 vs DP-OPT at eps = 1000).
TEST(PaperNumbers, ProvenOrderingsOfTheCalibrations) {
    auto s = [](double eps, double delta, GaussianMethod m) {
        return pgdp::gaussian_sigma(eps, delta, 1.0, m);
    };
    for (double eps : {1e-6, 1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 1000.0})
        for (double delta : {1e-300, 1e-12, 1e-6, 1e-3, 0.05, 0.3, 0.49, 0.7, 0.95}) {
            SCOPED_TRACE("eps=" + std::to_string(eps) + " delta=" + std::to_string(delta));
            const double opt = s(eps, delta, GaussianMethod::Analytic);
            const double m1 = s(eps, delta, GaussianMethod::Zhao1);
            EXPECT_LE(opt, m1);
            if (delta < 0.5) {
                const double m2 = s(eps, delta, GaussianMethod::Zhao2);
                EXPECT_LE(m1, m2);
                if (eps <= 1) {
                    EXPECT_LT(m2, s(eps, delta, GaussianMethod::Classic));
                    EXPECT_LT(s(eps, delta, GaussianMethod::Classic),
                              s(eps, delta, GaussianMethod::Dwork2006));
                }
            }
            const double pdp = s(eps, delta, GaussianMethod::Pdp);
            const double m3 = s(eps, delta, GaussianMethod::Zhao3);
            const double m4 = s(eps, delta, GaussianMethod::Zhao4);
            EXPECT_LE(opt, pdp);
            EXPECT_LE(pdp, m3);
            EXPECT_LE(m3, m4);
            EXPECT_LT(m4, s(eps, delta, GaussianMethod::Zcdp));
            EXPECT_LE(opt, s(eps, delta, GaussianMethod::Vinterbo));
            EXPECT_LE(s(eps, delta, GaussianMethod::Vinterbo), s(eps, delta, GaussianMethod::VinterboClosed));
            if (eps >= 0.01 && delta <= 0.05) {
                EXPECT_GT(opt, 1 / std::sqrt(2 * eps));
                EXPECT_LT(opt, std::sqrt(2 * std::log(1 / (2 * delta))) / eps + 1 / std::sqrt(2 * eps));
            }
            if (delta >= 1e-12) {
                EXPECT_LT(opt, 1 / (2 * std::sqrt(2.0) * erfinv(delta)));
            }
        }
    // Theorem 3 (2): the limit eps -> 0 is approached once eps/delta -> 0 (the paper's discussion
    // after Theorem 3), so it is checked where eps/delta <= 2e-5.
    for (double delta : {0.05, 0.3}) {
        const double limit = 1 / (2 * std::sqrt(2.0) * erfinv(delta));
        EXPECT_NEAR(s(1e-6, delta, GaussianMethod::Analytic), limit, 1e-4 * limit) << delta;
    }
}
