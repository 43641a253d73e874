// SQL entry points of the calibration library: thin wrappers that read arguments, call the core
// behind the exception barrier and return the result.
#include "pg/base/postgres_headers.hpp"

#include "core/accuracy.hpp"
#include "core/gaussian_calibration.hpp"
#include "core/gaussian_method.hpp"
#include "core/gaussian_profile.hpp"
#include "core/truncated_laplace.hpp"
#include "core/validate.hpp"
#include "pg/base/cpp_boundary.hpp"

#include <cmath>

extern "C" {

PG_FUNCTION_INFO_V1(pgdp_gaussian_sigma);
PG_FUNCTION_INFO_V1(pgdp_gaussian_delta);
PG_FUNCTION_INFO_V1(pgdp_gaussian_epsilon);
PG_FUNCTION_INFO_V1(pgdp_gaussian_accuracy);
PG_FUNCTION_INFO_V1(pgdp_tlap_params);
PG_FUNCTION_INFO_V1(pgdp_tlap_accuracy);

// gaussian_sigma(epsilon, delta, sensitivity, method) -> float8
Datum pgdp_gaussian_sigma(PG_FUNCTION_ARGS) {
    const double epsilon = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    const char* method = text_to_cstring(PG_GETARG_TEXT_PP(3));
    double sigma = 0.0;
    PGDP_GUARDED(sigma =
                     pgdp::gaussian_sigma(epsilon, delta, sensitivity, pgdp::parse_gaussian_method(method)));
    PG_RETURN_FLOAT8(sigma);
}

// gaussian_delta(sigma, epsilon, sensitivity) -> float8
Datum pgdp_gaussian_delta(PG_FUNCTION_ARGS) {
    const double sigma = PG_GETARG_FLOAT8(0);
    const double epsilon = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    double delta = 0.0;
    PGDP_GUARDED(delta = pgdp::gaussian_delta(sigma, epsilon, sensitivity));
    PG_RETURN_FLOAT8(delta);
}

// gaussian_epsilon(sigma, delta, sensitivity) -> float8
Datum pgdp_gaussian_epsilon(PG_FUNCTION_ARGS) {
    const double sigma = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    double epsilon = 0.0;
    PGDP_GUARDED(epsilon = pgdp::gaussian_epsilon(sigma, delta, sensitivity);
                 // Infinite when delta(eps) > delta up to the largest float8 eps: no float8 answer.
                 if (!std::isfinite(epsilon)) {
                     throw pgdp::RangeError("sigma",
                                            "no float8 epsilon makes sigma " + pgdp::shown(sigma) +
                                                " private at delta " + pgdp::shown(delta) +
                                                " and sensitivity " + pgdp::shown(sensitivity) +
                                                ": sigma is too small",
                                            "Use a larger sigma (or delta, or a smaller sensitivity).");
                 });
    PG_RETURN_FLOAT8(epsilon);
}

// gaussian_accuracy(epsilon, delta, sensitivity, alpha, method) -> float8
Datum pgdp_gaussian_accuracy(PG_FUNCTION_ARGS) {
    const double epsilon = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    const double alpha = PG_GETARG_FLOAT8(3);
    const char* method = text_to_cstring(PG_GETARG_TEXT_PP(4));
    double accuracy = 0.0;
    PGDP_GUARDED(accuracy = pgdp::gaussian_accuracy(epsilon, delta, sensitivity, alpha,
                                                    pgdp::parse_gaussian_method(method)));
    PG_RETURN_FLOAT8(accuracy);
}

// tlap_params(epsilon, delta, sensitivity, OUT lambda, OUT bound, OUT amplitude, OUT power)
Datum pgdp_tlap_params(PG_FUNCTION_ARGS) {
    const double epsilon = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    pgdp::TruncatedLaplaceParams params{};
    PGDP_GUARDED(params = pgdp::truncated_laplace_params(epsilon, delta, sensitivity));

    TupleDesc descriptor;
    if (get_call_result_type(fcinfo, nullptr, &descriptor) != TYPEFUNC_COMPOSITE) {
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("tlap_params must be called in a context that accepts a record")));
    }
    descriptor = BlessTupleDesc(descriptor);
    Datum values[4] = {Float8GetDatum(params.lambda), Float8GetDatum(params.bound),
                       Float8GetDatum(params.amplitude), Float8GetDatum(params.power)};
    bool nulls[4] = {false, false, false, false};
    PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(descriptor, values, nulls)));
}

// tlap_accuracy(epsilon, delta, sensitivity, alpha) -> float8
Datum pgdp_tlap_accuracy(PG_FUNCTION_ARGS) {
    const double epsilon = PG_GETARG_FLOAT8(0);
    const double delta = PG_GETARG_FLOAT8(1);
    const double sensitivity = PG_GETARG_FLOAT8(2);
    const double alpha = PG_GETARG_FLOAT8(3);
    double accuracy = 0.0;
    PGDP_GUARDED(accuracy = pgdp::truncated_laplace_accuracy(epsilon, delta, sensitivity, alpha));
    PG_RETURN_FLOAT8(accuracy);
}

}  // extern "C"
