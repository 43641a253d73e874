// Independent 50-digit references for the pgdp calibration core.
//
// Every formula below is implemented directly from the papers in /work/shared/papers (cited next to
// each formula by file, theorem and equation). Nothing here is derived from src/core/*.cpp.
// Arithmetic: Boost.Multiprecision cpp_bin_float_50 (50 decimal digits, huge exponent range so that
// e^1000 or erfc(30) neither overflow nor underflow) with Boost.Math special functions on that type.
//
// Inputs are doubles (exactly what the C++ tests pass to the core); each is converted exactly to the
// 50-digit type and printed with %.17g, which strtod maps back to the same double. Results are printed
// with 30 significant digits. The program is deterministic (no randomness, fixed grids).
//
// Usage: generate_references OUTPUT_DIR      (make references  writes into test/reference/)
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using R = boost::multiprecision::cpp_bin_float_50;

const R kPi = boost::math::constants::pi<R>();
const R kSqrt2 = boost::multiprecision::sqrt(R(2));

R erfc_(const R& x) { return boost::math::erfc(x); }
R erfc_inv_(const R& y) { return boost::math::erfc_inv(y); }
R erf_inv_(const R& y) { return boost::math::erf_inv(y); }
R exp_(const R& x) { return boost::multiprecision::exp(x); }
R log_(const R& x) { return boost::multiprecision::log(x); }
R sqrt_(const R& x) { return boost::multiprecision::sqrt(x); }
R expm1_(const R& x) { return boost::math::expm1(x); }
R log1p_(const R& x) { return boost::math::log1p(x); }
R abs_(const R& x) { return boost::multiprecision::abs(x); }

// Standard normal CDF Phi(x) = erfc(-x/sqrt2)/2 (accurate in the far left tail).
R Phi(const R& x) { return erfc_(-x / kSqrt2) / 2; }
// Phi^{-1}(1 - delta) = sqrt2 * erfc_inv(2 delta) (no cancellation for tiny delta).
R Phi_inv_upper(const R& delta) { return kSqrt2 * erfc_inv_(2 * delta); }

std::string fmt_in(double v) {  // %.17g: strtod gives back exactly v
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}
std::string fmt_out(const R& v) {  // 30 significant digits
    if (v == 0) return "0";
    return v.str(30, std::ios_base::scientific);
}
// A double given by a short decimal literal, parsed exactly as the tests do.
double D(const char* s) { return std::strtod(s, nullptr); }
double D(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// ---------------------------------------------------------------------------------------------
// Exact privacy profile of the Gaussian mechanism (Balle-Wang): 001 Theorem 5.18 eq. (5.23),
// 000 eq. (11):  delta(eps) = Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D).
R profile_delta(const R& s, const R& eps, const R& D) {
    const R h = D / (2 * s);
    const R x = eps * s / D;
    return Phi(h - x) - exp_(eps) * Phi(-h - x);
}

// Smallest s with profile_delta(s) <= delta; the profile decreases in s (001 Lemma 5.17 in the
// dual form). Geometric bisection on [1e-30 D, 1e30 D], 220 halvings: relative bracket < 1e-64.
// Returns the upper (safe) end of the final bracket.
R analytic_sigma(const R& eps, const R& delta, const R& D) {
    R lo = D * R("1e-30"), hi = D * R("1e30");
    if (!(profile_delta(lo, eps, D) > delta) || !(profile_delta(hi, eps, D) <= delta))
        throw std::runtime_error("analytic_sigma: bad bracket");
    for (int i = 0; i < 220; ++i) {
        R mid = sqrt_(lo * hi);
        if (profile_delta(mid, eps, D) > delta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// Stable (u + sqrt(u^2 + eps)) D / (eps sqrt2), the common final step of 002 eqs. (5), (7b), (9),
// (13b), (14b), (15b). For u < 0 use the conjugate eps / (sqrt(u^2+eps) - u).
R sigma_from_u(const R& u, const R& eps, const R& D) {
    const R r = sqrt_(u * u + eps);
    if (u >= 0) return (u + r) * D / (eps * kSqrt2);
    return D / (kSqrt2 * (r - u));
}

// 002 Theorem 2 eq. (5): a with erfc(a) - e^eps erfc(sqrt(a^2+eps)) = 2 delta (r(u) strictly
// decreasing, Remark 4), sigma = (a + sqrt(a^2+eps)) D/(eps sqrt2). Used only as a self-check of
// analytic_sigma (two different parametrisations of the same optimum must agree).
R analytic_sigma_zhao(const R& eps, const R& delta, const R& D) {
    auto r = [&](const R& u) { return erfc_(u) - exp_(eps) * erfc_(sqrt_(u * u + eps)); };
    R lo = -40, hi = 40;
    for (int i = 0; i < 260; ++i) {
        R mid = (lo + hi) / 2;
        if (r(mid) > 2 * delta)
            lo = mid;
        else
            hi = mid;
    }
    return sigma_from_u(hi, eps, D);
}

// Smallest eps >= 0 with profile_delta(s, eps) <= delta (the profile decreases in eps).
R profile_epsilon(const R& s, const R& delta, const R& D) {
    if (profile_delta(s, R(0), D) <= delta) return R(0);
    R lo = 0, hi = 1;
    while (profile_delta(s, hi, D) > delta) {
        lo = hi;
        hi *= 2;
    }
    for (int i = 0; i < 260; ++i) {
        R mid = (lo + hi) / 2;
        if (profile_delta(s, mid, D) > delta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// ---------------------------------------------------------------------------------------------
// Closed forms and the pDP optimum.
struct Method {
    const char* name;
    bool (*in_domain)(double eps, double delta);
    R (*sigma)(const R& eps, const R& delta, const R& D);
    const char* reject_argument;  // which argument the core must name when out of domain
};

bool any_domain(double, double) { return true; }
bool eps_le_1(double eps, double) { return eps <= 1.0; }
bool delta_lt_half(double, double delta) { return delta < 0.5; }

// 001 Theorem 5.9 (Dwork-Roth A.1), 000 eq. (1), 002 Thm 1 "Dwork-2014": sqrt(2 ln(1.25/delta)) D/eps,
// proven for eps in (0, 1] only.
R sigma_classic(const R& eps, const R& delta, const R& D) {
    return sqrt_(2 * log_(R("1.25") / delta)) * D / eps;
}
// 002 Theorem 1 "Dwork-2006": sqrt(2 ln(2/delta)) D/eps, eps <= 1.
R sigma_dwork2006(const R& eps, const R& delta, const R& D) {
    return sqrt_(2 * log_(R(2) / delta)) * D / eps;
}
// 000 Theorem 5 eq. (8): b = D/(2 eps) (Phi^{-1}(1-delta) + sqrt(Phi^{-1}(1-delta)^2 + 2 eps)).
R sigma_vinterbo(const R& eps, const R& delta, const R& D) {
    const R q = Phi_inv_upper(delta);
    const R r = sqrt_(q * q + 2 * eps);
    if (q >= 0) return D / (2 * eps) * (q + r);
    return D / (r - q);  // same value, conjugate form for q < 0 (delta > 1/2)
}
// 000 Theorem 5 eq. (9): D/(eps sqrt2) (sqrt(a z + eps) + s sqrt(a z)), z = ln(1/(4 delta (1-delta))),
// (a, s) = (1, 1) for delta <= 1/2 and (pi/4, -1) for delta >= 1/2.
R sigma_vinterbo_closed(const R& eps, const R& delta, const R& D) {
    const R z = -log_(4 * delta * (1 - delta));
    const bool low = delta <= R("0.5");
    const R a = low ? R(1) : kPi / 4;
    const R az = a * z;
    if (low) return D / (eps * kSqrt2) * (sqrt_(az + eps) + sqrt_(az));
    return D / (kSqrt2 * (sqrt_(az + eps) + sqrt_(az)));  // conjugate of (sqrt(az+eps) - sqrt(az))
}
// 002 Theorem 4 eqs. (7a)/(7b) (Mechanism 1).
R sigma_zhao1(const R& eps, const R& delta, const R& D) {
    const R t = exp_(eps) * erfc_(sqrt_(eps));  // e^eps erfc(sqrt eps)
    R b = 0;
    if (2 - t > 2 * delta) {  // condition of (7a)
        const R inner_arg = 2 * delta + t;
        const R x = erfc_inv_(inner_arg);  // inverfc(2 delta + e^eps erfc(sqrt eps))
        const R frac = exp_(eps) * erfc_(sqrt_(x * x + eps)) / inner_arg;
        const R arg = 2 * delta / (1 - frac);
        if (!(arg > 0 && arg < 2)) throw std::runtime_error("zhao1: inverfc argument out of (0,2)");
        b = erfc_inv_(arg);
    }
    return sigma_from_u(b, eps, D);
}
// 002 Theorem 5 eq. (9) (Mechanism 2), 0 < delta < 0.5: c = sqrt(ln(2/(sqrt(16 delta+1) - 1))).
R sigma_zhao2(const R& eps, const R& delta, const R& D) {
    // sqrt(16 delta + 1) - 1 written as 16 delta / (sqrt(16 delta + 1) + 1): no cancellation at 1e-300.
    const R c = sqrt_(log_(R(2) * (sqrt_(16 * delta + 1) + 1) / (16 * delta)));
    return sigma_from_u(c, eps, D);
}
// 002 Theorem 6 eqs. (13a)/(13b) (pDP-OPT): d with erfc(d) + erfc(sqrt(d^2+eps)) = 2 delta.
// The left side strictly decreases in d (its derivative is -2/sqrt(pi) (e^{-d^2} +
// e^{-d^2-eps} d/sqrt(d^2+eps)) < 0), so bisection on [-40, 40] (260 halvings) is exact to 1e-76.
R sigma_pdp(const R& eps, const R& delta, const R& D) {
    auto F = [&](const R& d) { return erfc_(d) + erfc_(sqrt_(d * d + eps)); };
    R lo = -40, hi = 40;
    for (int i = 0; i < 260; ++i) {
        R mid = (lo + hi) / 2;
        if (F(mid) > 2 * delta)
            lo = mid;
        else
            hi = mid;
    }
    return sigma_from_u(hi, eps, D);  // larger d = larger sigma: the safe end
}
// 002 Theorem 8 eqs. (14a)/(14b) (Mechanism 3): f = inverfc(delta).
R sigma_zhao3(const R& eps, const R& delta, const R& D) { return sigma_from_u(erfc_inv_(delta), eps, D); }
// 002 Theorem 9 eqs. (15a)/(15b) (Mechanism 4): g = sqrt(ln(2/(sqrt(8 delta+1) - 1))).
R sigma_zhao4(const R& eps, const R& delta, const R& D) {
    const R g = sqrt_(log_(R(2) * (sqrt_(8 * delta + 1) + 1) / (8 * delta)));  // as in zhao2
    return sigma_from_u(g, eps, D);
}
// 002 Section VII (zCDP, Bun-Steinke Prop. 1.3/1.6): D (sqrt(ln 1/delta) + sqrt(ln 1/delta + eps)) / (sqrt2
// eps).
R sigma_zcdp(const R& eps, const R& delta, const R& D) {
    const R L = log_(1 / delta);
    return D * (sqrt_(L) + sqrt_(L + eps)) / (kSqrt2 * eps);
}
R sigma_analytic(const R& eps, const R& delta, const R& D) { return analytic_sigma(eps, delta, D); }

const std::vector<Method>& methods() {
    static const std::vector<Method> m = {
        {"analytic", any_domain, sigma_analytic, ""},
        {"classic", eps_le_1, sigma_classic, "epsilon"},
        {"dwork2006", eps_le_1, sigma_dwork2006, "epsilon"},
        {"vinterbo", any_domain, sigma_vinterbo, ""},
        {"vinterbo_closed", any_domain, sigma_vinterbo_closed, ""},
        {"zhao1", any_domain, sigma_zhao1, ""},
        {"zhao2", delta_lt_half, sigma_zhao2, "delta"},
        {"pdp", any_domain, sigma_pdp, ""},
        {"zhao3", any_domain, sigma_zhao3, ""},
        {"zhao4", any_domain, sigma_zhao4, ""},
        {"zcdp", any_domain, sigma_zcdp, ""},
    };
    return m;
}

// ---------------------------------------------------------------------------------------------
// Gaussian accuracy, 003 Theorem 1 (proof, generalised to any sigma): a = sigma sqrt2 erfinv(1-alpha).
// erfinv(1 - alpha) == erfcinv(alpha); the erfc form keeps full precision for tiny alpha (for alpha
// >= 1e-6 both are computed and must agree, a self-check).
R gaussian_accuracy(const R& sigma, const R& alpha) {
    const R a = sigma * kSqrt2 * erfc_inv_(alpha);
    if (alpha >= R("1e-6")) {
        const R b = sigma * kSqrt2 * erf_inv_(1 - alpha);
        if (abs_(a - b) > abs_(a) * R("1e-35")) throw std::runtime_error("accuracy self-check");
    }
    return a;
}

// Truncated Laplace, 004 Definition 3 (eq. 4), Theorem 2 (eq. 5), Theorem 3 (eq. 7); 001 Thm 5.6.
struct TLap {
    R lambda, bound, amplitude, power;
};
TLap truncated_laplace(const R& eps, const R& delta, const R& D) {
    const R lambda = D / eps;               // lambda := D/eps
    const R K = expm1_(eps) / (2 * delta);  // (e^eps - 1)/(2 delta)
    const R L = log1p_(K);                  // log(1 + K)
    TLap t;
    t.lambda = lambda;
    t.bound = lambda * L;                                       // A := (D/eps) log(1 + (e^eps-1)/(2 delta))
    t.amplitude = lambda * (1 - L / K);                         // V1 (eq. 5)
    t.power = 2 * lambda * lambda * (1 - (L * L / 2 + L) / K);  // V2 (eq. 7)
    // Self-check against the integrals in the proofs of Theorems 2 and 3 (B from Definition 3):
    // V1 = lambda - A/(e^{A/lambda} - 1), V2 = 2 lambda^2 - (A^2 + 2 lambda A) e^{-A/lambda}/(1 -
    // e^{-A/lambda}).
    const R em1 = expm1_(t.bound / lambda);  // e^{A/lambda} - 1, recomputed from A
    const R v1 = lambda - t.bound / em1;
    const R v2 = 2 * lambda * lambda - (t.bound * t.bound + 2 * lambda * t.bound) / em1;
    if (abs_(v1 - t.amplitude) > t.amplitude * R("1e-25") || abs_(v2 - t.power) > t.power * R("1e-25"))
        throw std::runtime_error("truncated Laplace self-check");
    return t;
}
// P(|X| > a) = 2 int_a^A B e^{-x/lambda} dx = (e^{-a/lambda} - e^{-A/lambda}) / (1 - e^{-A/lambda})
// (density of 004 Definition 3), so alpha = that  <=>  a = -lambda ln(alpha + (1-alpha) e^{-A/lambda}).
R truncated_laplace_accuracy(const R& eps, const R& delta, const R& D, const R& alpha) {
    const TLap t = truncated_laplace(eps, delta, D);
    const R a = -t.lambda * log_(alpha + (1 - alpha) * exp_(-t.bound / t.lambda));
    // Self-check: the tail probability at a, recomputed from the density, is alpha.
    const R e = exp_(-t.bound / t.lambda);
    const R tail = (exp_(-a / t.lambda) - e) / (1 - e);
    if (abs_(tail - alpha) > alpha * R("1e-30")) throw std::runtime_error("tlap accuracy self-check");
    return a;
}

// ---------------------------------------------------------------------------------------------
// Grids (short decimal literals, parsed by strtod exactly like the tests parse the CSV).
const std::vector<std::string> kEps = {"1e-6", "1e-3", "0.01", "0.1", "0.5", "1",   "2",
                                       "5",    "10",   "20",   "50",  "100", "1000"};
const std::vector<std::string> kDelta = {"1e-300", "1e-100", "1e-12", "1e-9", "1e-6", "1e-5", "1e-3",
                                         "0.01",   "0.05",   "0.1",   "0.3",  "0.49", "0.7",  "0.95"};
const std::vector<std::string> kSens = {"1", "3.5", "1e6"};

// Dense analytic grid: eps = 10^(k/8) * 1e-3 (k = 0..36) and 50; delta = 10^(k/2) * 1e-12 (k = 0..22),
// 0.2, 0.3; each rounded to 4 significant digits so that the literal is short.
std::vector<std::string> dense_eps() {
    std::vector<std::string> v;
    for (int k = 0; k <= 36; ++k) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g", 1e-3 * std::pow(10.0, k / 8.0));
        v.push_back(buf);
    }
    v.push_back("50");
    return v;
}
std::vector<std::string> dense_delta() {
    std::vector<std::string> v;
    for (int k = 0; k <= 22; ++k) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g", 1e-12 * std::pow(10.0, k / 2.0));
        v.push_back(buf);
    }
    v.push_back("0.2");
    v.push_back("0.3");
    return v;
}

FILE* open_out(const std::string& dir, const char* name) {
    const std::string path = dir + "/" + name;
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot open " + path);
    return f;
}

void write_sigma(const std::string& dir, FILE* rejected) {
    FILE* f = open_out(dir, "gaussian_sigma.csv");
    std::fprintf(f, "method,epsilon,delta,sensitivity,sigma,delta_achieved\n");
    std::set<std::string> done;
    auto row = [&](const Method& m, double eps, double delta, double sens) {
        const std::string key =
            std::string(m.name) + "," + fmt_in(eps) + "," + fmt_in(delta) + "," + fmt_in(sens);
        if (!done.insert(key).second) return;  // the dense grid repeats some points of the main grid
        const R e(eps), d(delta), s(sens);
        R sigma;
        if (std::string(m.name) == "analytic") {
            // The profile depends on sigma/D only (001 eq. 5.23), so the optimum is exactly linear in
            // D: solve once for D = 1 (cached) and scale.
            static std::map<std::pair<double, double>, R> unit;
            auto it = unit.find({eps, delta});
            if (it == unit.end()) {
                const R u = analytic_sigma(e, d, R(1));
                const R z = analytic_sigma_zhao(e, d, R(1));  // self-check: 002 Thm 2 eq. (5)
                if (abs_(z - u) > u * R("1e-40"))
                    throw std::runtime_error("analytic self-check failed at eps=" + fmt_in(eps));
                it = unit.emplace(std::make_pair(eps, delta), u).first;
            }
            sigma = it->second * s;
        } else {
            sigma = m.sigma(e, d, s);
        }
        if (!boost::multiprecision::isfinite(sigma) || !(sigma > 0))
            throw std::runtime_error(std::string("non-finite sigma for ") + m.name + " at " + key);
        const R achieved = profile_delta(sigma, e, s);
        std::fprintf(f, "%s,%s,%s,%s,%s,%s\n", m.name, fmt_in(eps).c_str(), fmt_in(delta).c_str(),
                     fmt_in(sens).c_str(), fmt_out(sigma).c_str(), fmt_out(achieved).c_str());
    };
    for (const Method& m : methods()) {
        for (const auto& es : kEps)
            for (const auto& ds : kDelta)
                for (const auto& ss : kSens) {
                    const double eps = D(es), delta = D(ds), sens = D(ss);
                    if (m.in_domain(eps, delta)) {
                        row(m, eps, delta, sens);
                    } else if (ss == "1") {
                        std::fprintf(rejected, "gaussian_sigma,%s,%s,%s,%s,,,%s\n", m.name,
                                     fmt_in(eps).c_str(), fmt_in(delta).c_str(), fmt_in(sens).c_str(),
                                     m.reject_argument);
                    }
                }
    }
    // Dense analytic grid (eps in [1e-3, 50], delta in [1e-12, 0.3]), sensitivities 1 and 3.5.
    const Method& analytic = methods()[0];
    for (const auto& es : dense_eps())
        for (const auto& ds : dense_delta())
            for (const char* ss : {"1", "3.5"}) row(analytic, D(es), D(ds), D(ss));
    std::fclose(f);
}

void write_profile(const std::string& dir) {
    FILE* f = open_out(dir, "gaussian_profile.csv");
    std::fprintf(f, "sigma,epsilon,sensitivity,delta\n");
    const std::vector<std::string> ratios = {"0.01", "0.1", "0.3", "1", "3", "10", "100", "1e4"};
    for (const auto& ss : kSens)
        for (const auto& rs : ratios)
            for (const auto& es : kEps) {
                const double sens = D(ss), sigma = D(rs) * sens, eps = D(es);
                const R delta = profile_delta(R(sigma), R(eps), R(sens));
                std::fprintf(f, "%s,%s,%s,%s\n", fmt_in(sigma).c_str(), fmt_in(eps).c_str(),
                             fmt_in(sens).c_str(), fmt_out(delta).c_str());
            }
    std::fclose(f);
}

void write_epsilon(const std::string& dir) {
    FILE* f = open_out(dir, "gaussian_epsilon.csv");
    std::fprintf(f, "sigma,delta,sensitivity,epsilon\n");
    const std::vector<std::string> ratios = {"0.01", "0.05", "0.2", "0.5", "1", "2", "5", "20", "100", "1e4"};
    for (const auto& ss : kSens)
        for (const auto& rs : ratios)
            for (const auto& ds : kDelta) {
                const double sens = D(ss), sigma = D(rs) * sens, delta = D(ds);
                const R eps = profile_epsilon(R(sigma), R(delta), R(sens));
                std::fprintf(f, "%s,%s,%s,%s\n", fmt_in(sigma).c_str(), fmt_in(delta).c_str(),
                             fmt_in(sens).c_str(), fmt_out(eps).c_str());
            }
    std::fclose(f);
}

const std::vector<std::string> kAlpha = {"1e-300", "1e-20", "1e-12", "1e-6", "0.001",   "0.01",
                                         "0.05",   "0.1",   "0.5",   "0.9",  "0.999999"};

void write_accuracy(const std::string& dir) {
    FILE* f = open_out(dir, "gaussian_accuracy.csv");
    std::fprintf(f, "sigma,alpha,accuracy\n");
    for (const char* ss : {"1e-3", "0.5", "1", "3.5", "1e6"})
        for (const auto& as : kAlpha) {
            const double sigma = D(ss), alpha = D(as);
            std::fprintf(f, "%s,%s,%s\n", fmt_in(sigma).c_str(), fmt_in(alpha).c_str(),
                         fmt_out(gaussian_accuracy(R(sigma), R(alpha))).c_str());
        }
    std::fclose(f);

    FILE* g = open_out(dir, "gaussian_accuracy_method.csv");
    std::fprintf(g, "method,epsilon,delta,sensitivity,alpha,accuracy\n");
    for (const Method& m : methods())
        for (const char* es : {"0.1", "1", "10"})
            for (const char* ds : {"1e-9", "1e-5", "0.01", "0.3"})
                for (const char* ss : {"1", "3.5"})
                    for (const char* as : {"1e-12", "0.01", "0.05", "0.5"}) {
                        const double eps = D(es), delta = D(ds), sens = D(ss), alpha = D(as);
                        if (!m.in_domain(eps, delta)) continue;
                        const R sigma = m.sigma(R(eps), R(delta), R(sens));
                        std::fprintf(g, "%s,%s,%s,%s,%s,%s\n", m.name, fmt_in(eps).c_str(),
                                     fmt_in(delta).c_str(), fmt_in(sens).c_str(), fmt_in(alpha).c_str(),
                                     fmt_out(gaussian_accuracy(sigma, R(alpha))).c_str());
                    }
    std::fclose(g);
}

void write_truncated_laplace(const std::string& dir, FILE* rejected) {
    FILE* f = open_out(dir, "truncated_laplace.csv");
    std::fprintf(f, "epsilon,delta,sensitivity,lambda,bound,amplitude,power\n");
    FILE* g = open_out(dir, "truncated_laplace_accuracy.csv");
    std::fprintf(g, "epsilon,delta,sensitivity,alpha,accuracy\n");
    for (const auto& es : kEps)
        for (const auto& ds : kDelta)
            for (const auto& ss : kSens) {
                const double eps = D(es), delta = D(ds), sens = D(ss);
                if (!(delta < 0.5)) {  // 004 Definition 3 requires 0 < delta < 1/2
                    if (ss == "1")
                        std::fprintf(rejected, "truncated_laplace_params,,%s,%s,%s,,,delta\n",
                                     fmt_in(eps).c_str(), fmt_in(delta).c_str(), fmt_in(sens).c_str());
                    continue;
                }
                const TLap t = truncated_laplace(R(eps), R(delta), R(sens));
                std::fprintf(f, "%s,%s,%s,%s,%s,%s,%s\n", fmt_in(eps).c_str(), fmt_in(delta).c_str(),
                             fmt_in(sens).c_str(), fmt_out(t.lambda).c_str(), fmt_out(t.bound).c_str(),
                             fmt_out(t.amplitude).c_str(), fmt_out(t.power).c_str());
                if (ss == "1e6") continue;
                for (const char* as : {"1e-12", "0.01", "0.05", "0.5", "0.9"}) {
                    const double alpha = D(as);
                    std::fprintf(
                        g, "%s,%s,%s,%s,%s\n", fmt_in(eps).c_str(), fmt_in(delta).c_str(),
                        fmt_in(sens).c_str(), fmt_in(alpha).c_str(),
                        fmt_out(truncated_laplace_accuracy(R(eps), R(delta), R(sens), R(alpha))).c_str());
                }
            }
    std::fclose(f);
    std::fclose(g);
}

// Argument errors every entry point must raise (src/core/validate.hpp: epsilon finite > 0, delta in
// (0, upper), sensitivity/sigma finite > 0, alpha in (0, 1)). Columns not used by a function are empty.
void write_generic_rejections(FILE* r) {
    const char* bad_pos[] = {"0", "-1", "nan", "inf", "-inf"};
    const char* bad_delta[] = {"0", "-1e-300", "1", "1.5", "nan", "inf"};
    const char* bad_alpha[] = {"0", "1", "-0.5", "2", "nan"};
    for (const Method& m : methods()) {
        for (const char* e : bad_pos) std::fprintf(r, "gaussian_sigma,%s,%s,1e-05,1,,,epsilon\n", m.name, e);
        for (const char* d : bad_delta) std::fprintf(r, "gaussian_sigma,%s,0.5,%s,1,,,delta\n", m.name, d);
        for (const char* s : bad_pos)
            std::fprintf(r, "gaussian_sigma,%s,0.5,1e-05,%s,,,sensitivity\n", m.name, s);
        for (const char* a : bad_alpha)
            std::fprintf(r, "gaussian_accuracy,%s,0.5,1e-05,1,,%s,alpha\n", m.name, a);
    }
    // Classic and Dwork-2006 are proven for eps <= 1 only (001 Thm 5.9; 002 Thm 1, Remark 2).
    for (const char* m : {"classic", "dwork2006"}) {
        std::fprintf(r, "gaussian_sigma,%s,1.0000000000000002,1e-05,1,,,epsilon\n", m);
        std::fprintf(r, "gaussian_accuracy,%s,1.0000000000000002,1e-05,1,,0.05,epsilon\n", m);
    }
    // Mechanism 2 needs delta < 0.5 (002 Theorem 5).
    std::fprintf(r, "gaussian_sigma,zhao2,1,0.5,1,,,delta\n");
    std::fprintf(r, "gaussian_accuracy,zhao2,1,0.5,1,,0.05,delta\n");
    // gaussian_delta: epsilon = 0 is left out on purpose (the profile at 0 is meaningful, 000 eq. 11,
    // so whether it is accepted is the implementation's choice).
    for (const char* e : {"-1", "nan", "inf", "-inf"})
        std::fprintf(r, "gaussian_delta,,%s,,1,1,,epsilon\n", e);
    for (const char* e : bad_pos) {
        std::fprintf(r, "truncated_laplace_params,,%s,1e-05,1,,,epsilon\n", e);
        std::fprintf(r, "truncated_laplace_accuracy,,%s,1e-05,1,,0.05,epsilon\n", e);
    }
    for (const char* s : bad_pos) {
        std::fprintf(r, "gaussian_delta,,1,,1,%s,,sigma\n", s);
        std::fprintf(r, "gaussian_delta,,1,,%s,1,,sensitivity\n", s);
        std::fprintf(r, "gaussian_epsilon,,,1e-05,1,%s,,sigma\n", s);
        std::fprintf(r, "gaussian_epsilon,,,1e-05,%s,1,,sensitivity\n", s);
        std::fprintf(r, "gaussian_accuracy_for_sigma,,,,,%s,0.05,sigma\n", s);
        std::fprintf(r, "truncated_laplace_params,,1,1e-05,%s,,,sensitivity\n", s);
        std::fprintf(r, "truncated_laplace_accuracy,,1,1e-05,%s,,0.05,sensitivity\n", s);
    }
    for (const char* d : bad_delta) {
        std::fprintf(r, "gaussian_epsilon,,,%s,1,1,,delta\n", d);
        std::fprintf(r, "truncated_laplace_params,,1,%s,1,,,delta\n", d);
        std::fprintf(r, "truncated_laplace_accuracy,,1,%s,1,,0.05,delta\n", d);
    }
    // 004 Definition 3: 0 < delta < 1/2.
    std::fprintf(r, "truncated_laplace_params,,1,0.5,1,,,delta\n");
    std::fprintf(r, "truncated_laplace_accuracy,,1,0.5,1,,0.05,delta\n");
    for (const char* a : bad_alpha) {
        std::fprintf(r, "gaussian_accuracy_for_sigma,,,,,1,%s,alpha\n", a);
        std::fprintf(r, "truncated_laplace_accuracy,,1,1e-05,1,,%s,alpha\n", a);
    }
    // Unknown method names (exact, lower case).
    for (const char* n : {"Analytic", "gauss", "", "classic ", "zhao5"})
        std::fprintf(r, "parse_gaussian_method,%s,,,,,,method\n", n);
}

// Desfontaines, Voss, Gipson, Mandayam, "Differentially private partition selection" (PoPETs
// 2022; not among /work/shared/papers): the optimal keep probability of a partition of n units,
//   pi(0) = 0, pi(n) = min(e^eps pi(n-1) + delta, 1 - e^-eps (1 - pi(n-1) - delta), 1),
// for m > 1 at eps/m and delta' = 1 - (1 - delta)^(1/m), here in 50 digits with the exact e^eps
// (no grid), for n = 1 until pi(n) = 1.
void write_partition_selection(const std::string& dir) {
    FILE* f = open_out(dir, "partition_selection.csv");
    std::fprintf(f, "epsilon,delta,max_groups,n,pi\n");
    struct Case {
        const char* eps;
        const char* delta;
        int m;
    };
    const std::vector<Case> cases = {{"1", "1e-6", 1},  {"0.1", "1e-5", 1},  {"0.5", "1e-10", 1},
                                     {"3", "1e-3", 1},  {"10", "1e-12", 1},  {"1", "1e-6", 3},
                                     {"2", "1e-8", 10}, {"0.25", "1e-4", 2}, {"0.05", "1e-7", 1},
                                     {"1", "0.3", 1},   {"4", "1e-5", 4},    {"1", "0.1", 3}};
    for (const Case& c : cases) {
        const double eps = D(c.eps), delta = D(c.delta);
        const R eps_p = R(eps) / c.m;
        const R delta_p = -expm1_(log1p_(-R(delta)) / c.m);
        const R a = exp_(eps_p), b = exp_(-eps_p);
        R pi = 0;
        for (int n = 1; pi < 1; ++n) {
            if (n > 100000) throw std::runtime_error("partition selection: pi does not reach 1");
            const R first = a * pi + delta_p;
            const R second = 1 - b * (1 - pi - delta_p);
            pi = first < second ? first : second;
            if (pi > 1) pi = 1;
            std::fprintf(f, "%s,%s,%d,%d,%s\n", fmt_in(eps).c_str(), fmt_in(delta).c_str(), c.m, n,
                         fmt_out(pi).c_str());
        }
    }
    std::fclose(f);
}

// ---- person-level releases end to end (test/t/004_person_level_statistics.pl) --------------
// The threshold selections and the noise of releases over m groups, from their definitions in
// docs/privacy.md ("Private group selection", "Releases over m groups", "Discrete Gaussian"), here
// in 50 digits. Nothing is read from src/core.

// The discrete Gaussian N_Z(0, s^2) (CKS Definition 1): weights f(y) = exp(-y^2 / (2 s^2)) on
// |y| <= 40 s + 60 (the rest weighs < e^-800 relative), summed directly.
struct DiscreteGaussian {
    R s2;
    long span;
    std::vector<R> weight;  // weight[y + span]
    R total;
    explicit DiscreteGaussian(const R& s) : s2(s * s) {
        span = static_cast<long>(40 * s.convert_to<double>()) + 60;
        weight.resize(2 * span + 1);
        total = 0;
        for (long y = -span; y <= span; ++y) {
            weight[y + span] = exp_(-R(y) * R(y) / (2 * s2));
            total += weight[y + span];
        }
    }
    R tail(long k) const {  // P[Y >= k]
        if (k > span) return 0;
        if (k < -span) return 1;
        R sum = 0;
        for (long y = k; y <= span; ++y) sum += weight[y + span];
        return sum / total;
    }
    R variance() const {
        R sum = 0;
        for (long y = -span; y <= span; ++y) sum += R(y) * R(y) * weight[y + span];
        return sum / total;
    }
};

// CKS Theorem 7 (privacy.md "Discrete Gaussian"): the exact delta of N_Z(0, s^2) for an integer
// sensitivity D at eps: P[Y > eps s^2/D - D/2] - e^eps P[Y > eps s^2/D + D/2]; P[Y > x] = P[Y >=
// floor(x) + 1].
R discrete_gaussian_profile(const R& s, const R& eps, long D) {
    const DiscreteGaussian g(s);
    const R x = eps * s * s / D;
    const long a = static_cast<long>(boost::multiprecision::floor(x - R(D) / 2).convert_to<double>()) + 1;
    const long b = static_cast<long>(boost::multiprecision::floor(x + R(D) / 2).convert_to<double>()) + 1;
    return g.tail(a) - exp_(eps) * g.tail(b);
}

// The smallest s >= start (the continuous optimum) with the discrete profile <= delta: s grows by
// relative steps of 2^-12 until the profile fits, then bisects the last step (120 halvings).
R discrete_gaussian_sigma(const R& eps, const R& delta, long D, const R& start) {
    if (discrete_gaussian_profile(start, eps, D) <= delta) return start;
    R lo = start, hi = start;
    const R step = 1 + R(1) / 4096;
    for (int i = 0; discrete_gaussian_profile(hi, eps, D) > delta; ++i) {
        if (i > 100000) throw std::runtime_error("discrete_gaussian_sigma: no fit");
        lo = hi;
        hi *= step;
    }
    for (int i = 0; i < 120; ++i) {
        const R mid = (lo + hi) / 2;
        if (discrete_gaussian_profile(mid, eps, D) > delta)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// delta' = 1 - (1 - delta)^(1/m) (privacy.md "m > 1").
R per_group_delta(const R& delta, int m) { return -expm1_(log1p_(-delta) / m); }

// P[Z >= k] for the discrete Laplace of scale t (CKS: P(z) = (1-q)/(1+q) q^|z|, q = e^(-1/t)).
R discrete_laplace_tail(const R& t, long k) {
    const R q = exp_(-1 / t);
    if (k >= 1) return exp_(-R(k) / t) / (1 + q);
    return 1 - exp_(-R(1 - k) / t) / (1 + q);
}

// Keep probabilities pi(n) = P[n + Z >= tau] of the threshold selections, for n = 1 until
// pi > 1 - 1e-9:
//   laplace:  Z discrete Laplace of scale t = m/eps, tau the least integer >= 2 with
//             P[1 + Z >= tau] <= delta' (privacy.md "Laplace thresholding");
//   gaussian: eps_g = eps + ln(1 - delta/2); sigma for m = 1 the smallest sigma >= the analytic
//             (Balle-Wang) sigma at (eps_g, delta/2, 1) whose exact discrete profile (CKS Theorem
//             7) is <= delta/2, for m > 1 max(analytic sigma at (eps_g, delta/2, sqrt(m)), 8);
//             tau = 1 + the least k >= 1 whose documented tail bound f(k) / (1 - r(k)) /
//             (sqrt(2 pi) sigma), r(k) = exp(-(2k+1)/(2 sigma^2)), is <= q = 1 - (1 - delta/2)^(1/m)
//             (privacy.md "Gaussian thresholding"). The exact least k (exact tail <= q) is
//             printed to stdout when it differs (the bound is conservative).
// Column "noise": the Laplace scale t, or the Gaussian sigma.
void write_partition_selection_threshold(const std::string& dir) {
    FILE* f = open_out(dir, "partition_selection_threshold.csv");
    std::fprintf(f, "mechanism,epsilon,delta,max_groups,noise,threshold,n,pi\n");
    struct Case {
        const char* mechanism;
        const char* eps;
        const char* delta;
        int m;
    };
    const std::vector<Case> cases = {{"laplace", "1", "1e-6", 1},    {"laplace", "1", "1e-5", 3},
                                     {"laplace", "0.5", "1e-3", 2},  {"laplace", "1", "0.1", 1},
                                     {"laplace", "1", "0.1", 3},     {"gaussian", "1", "1e-6", 1},
                                     {"gaussian", "0.5", "1e-5", 3}, {"gaussian", "0.5", "1e-3", 2},
                                     {"gaussian", "1", "0.1", 1},    {"gaussian", "1", "0.1", 3}};
    for (const Case& c : cases) {
        const double eps_d = D(c.eps), delta_d = D(c.delta);
        const R eps = eps_d, delta = delta_d;
        const bool laplace = std::string(c.mechanism) == "laplace";
        R noise, q_target;
        std::function<R(long)> tail;  // P[Z >= k]
        long threshold = 0;
        if (laplace) {
            noise = R(c.m) / eps;
            q_target = per_group_delta(delta, c.m);
            tail = [noise](long k) { return discrete_laplace_tail(noise, k); };
            long k = 1;
            while (tail(k) > q_target) ++k;
            threshold = 1 + k;
        } else {
            const R eps_g = eps + log1p_(-delta / 2);
            const R start = analytic_sigma(eps_g, delta / 2, sqrt_(R(c.m)));
            if (c.m == 1) {
                noise = discrete_gaussian_sigma(eps_g, delta / 2, 1, start);
            } else {
                noise = start > 8 ? start : R(8);
            }
            q_target = per_group_delta(delta / 2, c.m);
            auto g = std::make_shared<DiscreteGaussian>(noise);
            tail = [g](long k) { return g->tail(k); };
            const R s2 = noise * noise;
            auto bound = [&](long k) {
                const R fk = exp_(-R(k) * R(k) / (2 * s2));
                const R one_minus_r = -expm1_(-(2 * R(k) + 1) / (2 * s2));
                return fk / one_minus_r / (sqrt_(2 * kPi) * noise);
            };
            long k = 1;
            while (bound(k) > q_target) ++k;
            threshold = 1 + k;
            long exact = 1;
            while (tail(exact) > q_target) ++exact;
            if (exact != k)
                std::printf(
                    "partition_selection_threshold: gaussian eps %s delta %s m %d: threshold %ld from "
                    "the documented tail bound, %ld from the exact tail\n",
                    c.eps, c.delta, c.m, threshold, 1 + exact);
        }
        for (long n = 1;; ++n) {
            if (n > 100000) throw std::runtime_error("partition selection threshold: pi does not reach 1");
            const R pi = tail(threshold - n);
            std::fprintf(f, "%s,%s,%s,%d,%s,%ld,%ld,%s\n", c.mechanism, fmt_in(eps_d).c_str(),
                         fmt_in(delta_d).c_str(), c.m, fmt_out(noise).c_str(), threshold, n,
                         fmt_out(pi).c_str());
            if (pi > 1 - R("1e-9")) break;
        }
    }
    std::fclose(f);
}

// The standard deviation of the integer noise of dp_count (sensitivity 1) and of dp_sum over
// integers with integer bounds [0, U] (sensitivity U), both on the grid g = 1 (privacy.md "Grid and
// mechanism": minimum granularity 1, Laplace and Gaussian grids <= 1 at these scales), in a
// release over m groups (privacy.md "Releases over m groups"):
//   laplace:  discrete Laplace of scale t = m D / eps: variance 2q / (1 - q)^2, q = e^(-1/t);
//   gaussian: m = 1: the smallest sigma >= the analytic sigma at (eps, delta, D) whose exact
//             discrete profile (CKS Theorem 7) is <= delta; m > 1: max(analytic sigma at (eps,
//             delta, sqrt(m) D), 8); the variance of N_Z(0, sigma^2) summed directly.
void write_person_level_noise(const std::string& dir) {
    FILE* f = open_out(dir, "person_level_noise.csv");
    std::fprintf(f, "mechanism,epsilon,delta,max_groups,sensitivity,sd\n");
    struct Case {
        const char* mechanism;
        const char* eps;
        const char* delta;
        int m;
        int sensitivity;
    };
    const std::vector<Case> cases = {{"laplace", "0.5", "0", 1, 1},     {"laplace", "0.5", "0", 3, 1},
                                     {"laplace", "1", "0", 1, 5},       {"laplace", "1", "0", 3, 5},
                                     {"gaussian", "0.5", "1e-5", 1, 1}, {"gaussian", "0.5", "1e-5", 3, 1},
                                     {"gaussian", "1", "1e-5", 1, 5},   {"gaussian", "1", "1e-5", 3, 5}};
    for (const Case& c : cases) {
        const double eps_d = D(c.eps), delta_d = D(c.delta);
        const R eps = eps_d, delta = delta_d;
        R variance;
        if (std::string(c.mechanism) == "laplace") {
            const R t = R(c.m) * c.sensitivity / eps;
            const R q = exp_(-1 / t);
            variance = 2 * q / ((1 - q) * (1 - q));
        } else {
            const R start = analytic_sigma(eps, delta, sqrt_(R(c.m)) * c.sensitivity);
            R sigma;
            if (c.m == 1)
                sigma = discrete_gaussian_sigma(eps, delta, c.sensitivity, start);
            else
                sigma = start > 8 ? start : R(8);
            variance = DiscreteGaussian(sigma).variance();
        }
        std::fprintf(f, "%s,%s,%s,%d,%d,%s\n", c.mechanism, fmt_in(eps_d).c_str(), fmt_in(delta_d).c_str(),
                     c.m, c.sensitivity, fmt_out(sqrt_(variance)).c_str());
    }
    std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : "test/reference";
    // --only partition_selection: that file alone (seconds; the others take minutes).
    if (argc > 3 && std::string(argv[2]) == "--only" && std::string(argv[3]) == "partition_selection") {
        try {
            write_partition_selection(dir);
            write_partition_selection_threshold(dir);
            write_person_level_noise(dir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "generate_references: %s\n", e.what());
            return 1;
        }
        return 0;
    }
    try {
        FILE* rejected = open_out(dir, "rejected.csv");
        std::fprintf(rejected, "function,method,epsilon,delta,sensitivity,sigma,alpha,argument\n");
        write_generic_rejections(rejected);
        write_sigma(dir, rejected);
        write_profile(dir);
        write_epsilon(dir);
        write_accuracy(dir);
        write_truncated_laplace(dir, rejected);
        write_partition_selection(dir);
        write_partition_selection_threshold(dir);
        write_person_level_noise(dir);
        std::fclose(rejected);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "generate_references: %s\n", e.what());
        return 1;
    }
    return 0;
}
