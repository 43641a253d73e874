// The budget transaction of one charge (ledger_worker.cpp runs it for each request of a batch):
// lock the role's budget row, split the releases into the basic and Gaussian parts, check every
// limit, spend and record the charge, through SPI plans kept per worker.
#include "pg/ledger/ledger_budget.hpp"

extern "C" {
#include "access/xact.h"
#include "executor/spi.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
}

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "core/budget_accounting.hpp"
#include "core/decimal_text.hpp"
#include "core/release_plan.hpp"
#include "pg/base/cpp_boundary.hpp"

namespace pgdp::pg {
namespace {

void set_outcome(ChargeOutcome& outcome, ChargeOutcome::Code code, const char* message, const char* detail,
                 const char* hint) {
    outcome.code = code;
    snprintf(outcome.message, sizeof outcome.message, "%s", message);
    snprintf(outcome.detail, sizeof outcome.detail, "%s", detail);
    snprintf(outcome.hint, sizeof outcome.hint, "%s", hint);
}

// Kept SPI plans (prepared once per worker).
SPIPlanPtr lock_budget = nullptr;
SPIPlanPtr renew_budget = nullptr;
SPIPlanPtr check_budget = nullptr;
SPIPlanPtr describe_budget = nullptr;
SPIPlanPtr spend_budget = nullptr;
SPIPlanPtr record_charge = nullptr;
SPIPlanPtr next_charge_id = nullptr;

SPIPlanPtr keep(const char* sql, int nargs, Oid* types) {
    SPIPlanPtr plan = SPI_prepare(sql, nargs, types);
    if (plan == nullptr)
        elog(ERROR, "pgdp ledger: SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
    if (SPI_keepplan(plan) != 0) elog(ERROR, "pgdp ledger: SPI_keepplan failed");
    return plan;
}

// Columns of check_budget, in order.
enum CheckColumn {
    kAboveFloor = 1,     // the smallest epsilon of the query >= min_epsilon
    kWithinQuota,        // releases + count <= release_limit
    kBasicFits,          // basic part: exact sums within (E - E_g, D - D_g)
    kGaussianEpsilon,    // E_g, float8
    kGaussianDelta,      // D_g, float8
    kGaussianMu2,        // mu^2 spent
    kBasicEpsilonAdded,  // exact sums of this query's basic-part releases (text)
    kBasicDeltaAdded,
    kMinEpsilonShown,  // the rest: bounded decimals for messages
    kReleases,
    kReleaseLimit,
    kBasicEpsilonSpent,
    kBasicDeltaSpent,
    kBasicEpsilonLimit,
    kBasicDeltaLimit,
    kGaussianEpsilonShown,
    kGaussianDeltaShown,
    kRenewsAtShown,  // budget windows (0.8): when the current window ends; NULL for a lifetime budget
};

void prepare_plans() {
    if (record_charge != nullptr) return;
    Oid lock_types[] = {REGROLEOID};
    // Gaussian releases join the Gaussian part when the role's budget has one (gaussian accounting
    // with gaussian_delta_limit > 0); otherwise they are charged to the basic part. The second
    // column: a budget window (0.8) has elapsed since the row's period_start (lifetime budgets,
    // period NULL, stop at the AND without calling the function).
    lock_budget = keep(
        "SELECT accounting = 'gaussian' AND gaussian_delta_limit > 0, "
        "       period IS NOT NULL AND pgdp.budget_window_start(period_start, period, now()) > period_start "
        "FROM pgdp.budgets WHERE role = $1 FOR UPDATE",
        1, lock_types);
    // The renewal of a budget window: the spent amounts, the Gaussian part and the release count
    // start again from 0 in the window that contains now() (pgdp.set_budget_period does the same).
    renew_budget = keep(
        "UPDATE pgdp.budgets SET epsilon_spent = 0, delta_spent = 0, gaussian_mu2 = 0, releases = 0, "
        "       period_start = pgdp.budget_window_start(period_start, period, now()), updated_at = now() "
        "WHERE role = $1",
        1, lock_types);
    // $2, $3: epsilons and deltas of the query's basic-part releases; $4: its smallest epsilon;
    // $5: its number of releases. Sums are exact (numeric); shown values are bounded.
    Oid check_types[] = {REGROLEOID, TEXTARRAYOID, TEXTARRAYOID, TEXTOID, INT8OID};
    // The display columns (bounded decimals, plpgsql with its own search_path: costly) are computed
    // only for a refusal message, by describe_budget; check_budget returns NULLs there.
    const char* decided =
        "SELECT $4::numeric >= b.min_epsilon, b.releases + $5 <= b.release_limit, "
        "       b.epsilon_spent + s.e <= b.epsilon_limit - b.gaussian_epsilon_limit "
        "         AND b.delta_spent + s.d <= b.delta_limit - b.gaussian_delta_limit, "
        "       b.gaussian_epsilon_limit::float8, b.gaussian_delta_limit::float8, b.gaussian_mu2, "
        "       s.e::text, s.d::text, ";
    const char* shown =
        "       pgdp.bounded_numeric(b.min_epsilon, true)::text, b.releases::text, "
        "       b.release_limit::text, pgdp.bounded_numeric(b.epsilon_spent, true)::text, "
        "       pgdp.bounded_numeric(b.delta_spent, true)::text, "
        "       trim_scale(pgdp.bounded_numeric(b.epsilon_limit - b.gaussian_epsilon_limit, false))::text, "
        "       trim_scale(pgdp.bounded_numeric(b.delta_limit - b.gaussian_delta_limit, false))::text, "
        "       pgdp.bounded_numeric(b.gaussian_epsilon_limit, false)::text, "
        "       pgdp.bounded_numeric(b.gaussian_delta_limit, false)::text, "
        "       (pgdp.budget_window_start(b.period_start, b.period, now()) "
        "        + make_interval(secs => extract(epoch FROM b.period)::float8))::text ";
    const char* not_shown =
        "       NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, "
        "NULL::text, NULL::text, NULL::text ";
    const char* from =
        "FROM pgdp.budgets b, "
        "     (SELECT (SELECT coalesce(sum(x::numeric), 0) FROM unnest($2) x) AS e, "
        "             (SELECT coalesce(sum(x::numeric), 0) FROM unnest($3) x) AS d) s "
        "WHERE b.role = $1";
    check_budget = keep(psprintf("%s%s%s", decided, not_shown, from), 5, check_types);
    describe_budget = keep(psprintf("%s%s%s", decided, shown, from), 5, check_types);
    Oid spend_types[] = {REGROLEOID, TEXTOID, TEXTOID, FLOAT8OID, INT8OID};
    spend_budget = keep(
        "UPDATE pgdp.budgets SET epsilon_spent = epsilon_spent + $2::numeric, delta_spent = delta_spent + "
        "$3::numeric, "
        "       gaussian_mu2 = $4, releases = releases + $5, updated_at = now() WHERE role = $1",
        5, spend_types);
    next_charge_id = keep("SELECT nextval('pgdp.charge_ids')", 0, nullptr);
    // One row per charge (extension/pgdp.sql.in, pgdp.charges): release i is element i of each array.
    Oid record_types[] = {INT8OID,        REGROLEOID,     INT4OID,       INT8OID,      TEXTOID,
                          TEXTARRAYOID,   TEXTARRAYOID,   BOOLARRAYOID,  TEXTARRAYOID, TEXTARRAYOID,
                          FLOAT8ARRAYOID, FLOAT8ARRAYOID, FLOAT8ARRAYOID};
    record_charge = keep(
        "INSERT INTO pgdp.charges (charge_id, role, backend_pid, query_id, query_text, aggregates, "
        "mechanisms, "
        "                          gaussian_part, epsilons, deltas, noise_scales, sensitivities, "
        "gaussian_mu2s) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric[], $10::numeric[], $11, $12, $13)",
        13, record_types);
}

// PostgreSQL calls below may ereport (longjmp): no C++ object with a destructor lives in these
// frames; decimals are written into plain buffers.
struct Decimal {
    char text[pgdp::kMaxDecimalTextLength + 1];
};

// The charged decimal of x (budget_accounting.hpp). A non-finite x (not reached: the aggregates
// validate) fails the request behind the barrier, inside charge_isolated's subtransaction:
// nothing is charged or released.
Decimal decimal(double x) {
    Decimal out{};
    PGDP_GUARDED(const std::string shortest = pgdp::shortest_decimal(x);
                 snprintf(out.text, sizeof out.text, "%s", shortest.c_str()));
    return out;
}

Datum text_array(const Decimal* values, int count) {
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * (count > 0 ? count : 1)));
    for (int i = 0; i < count; ++i) elements[i] = CStringGetTextDatum(values[i].text);
    return PointerGetDatum(construct_array(elements, count, TEXTOID, -1, false, TYPALIGN_INT));
}

Datum cstring_array(const char* const* values, int count) {
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * (count > 0 ? count : 1)));
    for (int i = 0; i < count; ++i) elements[i] = CStringGetTextDatum(values[i]);
    return PointerGetDatum(construct_array(elements, count, TEXTOID, -1, false, TYPALIGN_INT));
}

Datum float8_array(const double* values, int count) {
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * (count > 0 ? count : 1)));
    for (int i = 0; i < count; ++i) elements[i] = Float8GetDatum(values[i]);
    return PointerGetDatum(
        construct_array(elements, count, FLOAT8OID, sizeof(double), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

Datum bool_array(const bool* values, int count) {
    Datum* elements = static_cast<Datum*>(palloc(sizeof(Datum) * (count > 0 ? count : 1)));
    for (int i = 0; i < count; ++i) elements[i] = BoolGetDatum(values[i]);
    return PointerGetDatum(construct_array(elements, count, BOOLOID, 1, true, TYPALIGN_CHAR));
}

const char* column_text(int row, int column) {
    const char* value = SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column);
    return value != nullptr ? value : "";
}

double column_float8(int row, int column) {
    bool is_null = false;
    const Datum value = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column, &is_null);
    return is_null ? 0.0 : DatumGetFloat8(value);
}

bool column_bool(int row, int column) {
    bool is_null = false;
    const Datum value = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column, &is_null);
    return !is_null && DatumGetBool(value);
}

double rounded_down(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }

// ---- one charge: lock the budget row, split the releases, check the limits, write the charge ----
// Every step runs inside the batch's transaction and charge_isolated's subtransaction; a step that
// refuses writes the outcome and nothing else.

// The role's name for messages (its oid when the role was dropped meanwhile).
const char* role_display_name(Oid role) {
    const char* name = GetUserNameFromId(role, true);
    return name != nullptr ? name : psprintf("%u", role);
}

}  // namespace

NoBudgetTexts no_budget_texts(const char* role) {
    return {psprintf("role \"%s\" has no privacy budget", role),
            psprintf("Every release is charged to the session user, and \"%s\" has no row in pgdp.budgets; "
                     "nothing was released or charged.",
                     role),
            psprintf("A pgdp admin can create one with SELECT pgdp.set_budget('%s', epsilon, delta).", role)};
}

namespace {

// Locks the role's budget row (FOR UPDATE: charges of one role are serialised, and an admin
// change in progress holds them off), renews it when its budget window has elapsed (before the
// checks, in the charge's transaction: a refused charge keeps the renewal, which the views show
// anyway) and reads whether its Gaussian releases join the budget's Gaussian part. False, with
// the NoBudget outcome, when the role has no budget.
bool lock_budget_row(RequestSlot& request, const char* role, Datum role_datum, bool* gaussian_accounting) {
    if (SPI_execute_plan(lock_budget, &role_datum, nullptr, false, 1) != SPI_OK_SELECT) {
        elog(ERROR, "pgdp ledger: reading the budget failed");
    }
    if (SPI_processed == 0) {
        const NoBudgetTexts texts = no_budget_texts(role);
        set_outcome(request.outcome, ChargeOutcome::NoBudget, texts.message, texts.detail, texts.hint);
        return false;
    }
    *gaussian_accounting = column_bool(0, 1);
    if (column_bool(0, 2) &&
        (SPI_execute_plan(renew_budget, &role_datum, nullptr, false, 0) != SPI_OK_UPDATE ||
         SPI_processed != 1)) {
        elog(ERROR, "pgdp ledger: renewing the budget window failed");
    }
    return true;
}

// The query's releases split between the budget's parts: the basic part takes the decimals of the
// releases not in the Gaussian part, the Gaussian part their mu^2. Plain data (palloc'd arrays).
struct ReleaseSplit {
    Decimal* basic_epsilons;
    Decimal* basic_deltas;
    int basic;                 // releases in the basic part
    bool* in_gaussian_part;    // per release
    double mu2_added;          // sum of the Gaussian part's mu^2, rounded up
    double requested_epsilon;  // the query's totals, for messages
    double requested_delta;
    Decimal smallest_epsilon;  // checked against the role's min_epsilon
};

ReleaseSplit split_releases(const RequestSlot& request, bool gaussian_accounting) {
    const int count = request.count;
    ReleaseSplit split{};
    split.basic_epsilons = static_cast<Decimal*>(palloc(sizeof(Decimal) * kMaxReleasesPerQuery));
    split.basic_deltas = static_cast<Decimal*>(palloc(sizeof(Decimal) * kMaxReleasesPerQuery));
    split.in_gaussian_part = static_cast<bool*>(palloc(sizeof(bool) * kMaxReleasesPerQuery));
    double smallest_epsilon = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
        const ChargeItem& item = request.items[i];
        split.requested_epsilon += item.epsilon;
        split.requested_delta += item.delta;
        smallest_epsilon = std::fmin(smallest_epsilon, item.epsilon);
        split.in_gaussian_part[i] = gaussian_accounting && item.gaussian_mu2 > 0.0;
        if (split.in_gaussian_part[i]) {
            split.mu2_added = pgdp::add_rounded_up(split.mu2_added, item.gaussian_mu2);
        } else {
            split.basic_epsilons[split.basic] = decimal(item.epsilon);
            split.basic_deltas[split.basic] = decimal(item.delta);
            ++split.basic;
        }
    }
    // The shortest decimal is monotone in the double, so this is the smallest charged decimal.
    split.smallest_epsilon = decimal(count > 0 ? smallest_epsilon : 0.0);
    return split;
}

// The arguments of check_budget and describe_budget (same row, describe_budget adds the bounded
// decimals a refusal shows).
struct CheckArguments {
    Datum values[5];
};

CheckArguments check_arguments(const RequestSlot& request, Datum role_datum, const ReleaseSplit& split) {
    return CheckArguments{{role_datum, text_array(split.basic_epsilons, split.basic),
                           text_array(split.basic_deltas, split.basic),
                           CStringGetTextDatum(split.smallest_epsilon.text), Int64GetDatum(request.count)}};
}

void run_budget_query(SPIPlanPtr plan, CheckArguments& arguments, const char* failure) {
    if (SPI_execute_plan(plan, arguments.values, nullptr, false, 1) != SPI_OK_SELECT || SPI_processed != 1) {
        elog(ERROR, "pgdp ledger: %s", failure);
    }
}

// The Gaussian part's filter (gaussian accounting): sum mu_i^2 <= the bound of (E_g, D_g),
// converted to float8 (nearest) and moved one ulp down, never above the exact decimals. Read from
// the check_budget row.
struct GaussianPart {
    double mu2_before;
    double mu2_after;  // with this query's releases
    double mu2_limit;
    bool fits;
};

GaussianPart gaussian_part(const ReleaseSplit& split, bool gaussian_accounting) {
    GaussianPart part{};
    part.mu2_before = column_float8(0, kGaussianMu2);
    part.mu2_after =
        split.mu2_added > 0.0 ? pgdp::add_rounded_up(part.mu2_before, split.mu2_added) : part.mu2_before;
    // The core may throw (invalid profile arguments): behind the barrier, the error fails this
    // request's subtransaction instead of escaping into PostgreSQL.
    if (gaussian_accounting) {
        const double epsilon_room = rounded_down(column_float8(0, kGaussianEpsilon));
        const double delta_room = rounded_down(column_float8(0, kGaussianDelta));
        PGDP_GUARDED(part.mu2_limit = pgdp::gaussian_mu2_limit(epsilon_room, delta_room));
    }
    part.fits = split.mu2_added <= 0.0 || part.mu2_after <= part.mu2_limit;
    return part;
}

// After an exhausted budget's message: when it renews (budget windows, 0.8), read from the
// describe_budget row; empty for a lifetime budget.
const char* renewal_note() {
    const char* renews_at = column_text(0, kRenewsAtShown);
    return renews_at[0] != '\0' ? psprintf(" The budget window renews at %s.", renews_at) : "";
}

// Refusals, in this order: an epsilon below the role's min_epsilon; the release quota; the basic
// part; the Gaussian part (gaussian accounting). Each reads the describe_budget row for its
// message. True if the request was refused; *mu2_after is the Gaussian part's new mu^2 otherwise.
bool refused_by_limits(RequestSlot& request, const char* role, const ReleaseSplit& split,
                       CheckArguments& arguments, bool gaussian_accounting, double* mu2_after) {
    ChargeOutcome& outcome = request.outcome;
    const int count = request.count;
    run_budget_query(check_budget, arguments, "checking the budget failed");
    if (!column_bool(0, kAboveFloor)) {
        run_budget_query(describe_budget, arguments, "reading the budget failed");
        set_outcome(outcome, ChargeOutcome::EpsilonBelowFloor,
                    psprintf("epsilon %s is below the smallest epsilon of one release allowed for role "
                             "\"%s\" (%s)",
                             split.smallest_epsilon.text, role, column_text(0, kMinEpsilonShown)),
                    psprintf("Every pgdp aggregate call of the query (each grouping set) is one release and "
                             "each must have epsilon >= %s (min_epsilon of \"%s\"): releases at tiny "
                             "epsilons cost almost nothing and flood the ledger. Nothing was released or "
                             "charged.",
                             column_text(0, kMinEpsilonShown), role),
                    "Use a larger epsilon per aggregate call, or ask a pgdp admin to lower it with "
                    "pgdp.set_budget(role, epsilon, delta, min_epsilon => ...).");
        return true;
    }
    if (!column_bool(0, kWithinQuota)) {
        run_budget_query(describe_budget, arguments, "reading the budget failed");
        set_outcome(outcome, ChargeOutcome::Exhausted,
                    psprintf("release quota of role \"%s\" is exhausted", role),
                    psprintf("The query makes %d release%s; \"%s\" has made %s of its release_limit %s. "
                             "Nothing was released or charged.%s",
                             count, count == 1 ? "" : "s", role, column_text(0, kReleases),
                             column_text(0, kReleaseLimit), renewal_note()),
                    "A pgdp admin can raise it with pgdp.set_budget(role, epsilon, delta, "
                    "release_limit => ...).");
        return true;
    }
    const bool basic_fits = column_bool(0, kBasicFits);
    const GaussianPart gaussian = gaussian_part(split, gaussian_accounting);
    *mu2_after = gaussian.mu2_after;
    if (basic_fits && gaussian.fits) return false;
    run_budget_query(describe_budget, arguments, "reading the budget failed");
    const char* parts =
        gaussian_accounting
            ? psprintf(
                  "spent epsilon %s and delta %s of its basic part (%s, %s) and composed its Gaussian "
                  "releases to sensitivity/sigma %.6g of at most %.6g for its Gaussian part (%s, %s)%s",
                  column_text(0, kBasicEpsilonSpent), column_text(0, kBasicDeltaSpent),
                  column_text(0, kBasicEpsilonLimit), column_text(0, kBasicDeltaLimit),
                  std::sqrt(gaussian.mu2_before), std::sqrt(gaussian.mu2_limit),
                  column_text(0, kGaussianEpsilonShown), column_text(0, kGaussianDeltaShown),
                  split.mu2_added > 0.0 ? psprintf(" (%.6g with this query)", std::sqrt(gaussian.mu2_after))
                                        : "")
            : psprintf("spent epsilon %s and delta %s of its limits %s and %s",
                       column_text(0, kBasicEpsilonSpent), column_text(0, kBasicDeltaSpent),
                       column_text(0, kBasicEpsilonLimit), column_text(0, kBasicDeltaLimit));
    set_outcome(outcome, ChargeOutcome::Exhausted,
                psprintf("privacy budget of role \"%s\" is exhausted%s", role,
                         !gaussian_accounting ? ""
                         : !basic_fits        ? " (basic part)"
                                              : " (Gaussian part)"),
                psprintf("The query needs epsilon %s and delta %s (%d release%s); \"%s\" has %s "
                         "(%s accounting). Nothing was released or charged.%s",
                         decimal(split.requested_epsilon).text, decimal(split.requested_delta).text, count,
                         count == 1 ? "" : "s", role, parts, gaussian_accounting ? "gaussian" : "basic",
                         renewal_note()),
                "A pgdp admin can raise it with pgdp.raise_budget(); otherwise spend less epsilon and "
                "delta per query.");
    return true;
}

// Adds the query to the budget row (the exact sums of the check_budget row, the new mu^2, the
// release count) and returns the charge's id.
int64 spend(const RequestSlot& request, Datum role_datum, double mu2_after) {
    Datum spend_args[5] = {role_datum, CStringGetTextDatum(column_text(0, kBasicEpsilonAdded)),
                           CStringGetTextDatum(column_text(0, kBasicDeltaAdded)), Float8GetDatum(mu2_after),
                           Int64GetDatum(request.count)};
    if (SPI_execute_plan(spend_budget, spend_args, nullptr, false, 0) != SPI_OK_UPDATE ||
        SPI_processed != 1) {
        elog(ERROR, "pgdp ledger: updating the budget failed");
    }
    if (SPI_execute_plan(next_charge_id, nullptr, nullptr, false, 1) != SPI_OK_SELECT || SPI_processed != 1) {
        elog(ERROR, "pgdp ledger: no charge id");
    }
    bool is_null = false;
    return DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &is_null));
}

// One pgdp.charges row for the query: release i is element i of each array.
void record(const RequestSlot& request, Datum role_datum, const ReleaseSplit& split, int64 charge_id) {
    const int count = request.count;
    // The query text as valid text in the database encoding (it was cut at a byte boundary).
    const int text_length = static_cast<int>(std::strlen(request.query_text));
    const int valid_length = pg_mbcliplen(request.query_text, text_length, text_length);
    const char* query_text = pnstrdup(request.query_text, valid_length);

    const char** aggregates = static_cast<const char**>(palloc(sizeof(char*) * kMaxReleasesPerQuery));
    const char** mechanisms = static_cast<const char**>(palloc(sizeof(char*) * kMaxReleasesPerQuery));
    Decimal* all_epsilons = static_cast<Decimal*>(palloc(sizeof(Decimal) * kMaxReleasesPerQuery));
    Decimal* all_deltas = static_cast<Decimal*>(palloc(sizeof(Decimal) * kMaxReleasesPerQuery));
    double* noise_scales = static_cast<double*>(palloc(sizeof(double) * kMaxReleasesPerQuery));
    double* sensitivities = static_cast<double*>(palloc(sizeof(double) * kMaxReleasesPerQuery));
    double* mu2s = static_cast<double*>(palloc(sizeof(double) * kMaxReleasesPerQuery));
    for (int i = 0; i < count; ++i) {
        const ChargeItem& item = request.items[i];
        aggregates[i] = pnstrdup(item.aggregate, sizeof item.aggregate);
        mechanisms[i] = pnstrdup(item.mechanism, sizeof item.mechanism);
        all_epsilons[i] = decimal(item.epsilon);
        all_deltas[i] = decimal(item.delta);
        noise_scales[i] = item.noise_scale;
        sensitivities[i] = item.sensitivity;
        mu2s[i] = item.gaussian_mu2;
    }
    Datum args[13] = {Int64GetDatum(charge_id),           role_datum,
                      Int32GetDatum(request.backend_pid), Int64GetDatum(static_cast<int64>(request.query_id)),
                      CStringGetTextDatum(query_text),    cstring_array(aggregates, count),
                      cstring_array(mechanisms, count),   bool_array(split.in_gaussian_part, count),
                      text_array(all_epsilons, count),    text_array(all_deltas, count),
                      float8_array(noise_scales, count),  float8_array(sensitivities, count),
                      float8_array(mu2s, count)};
    char nulls[14] = "             ";
    if (request.query_id == 0) nulls[3] = 'n';
    if (SPI_execute_plan(record_charge, args, nulls, false, 0) != SPI_OK_INSERT) {
        elog(ERROR, "pgdp ledger: recording the charge failed");
    }
}

// Checks and records one request inside the batch's transaction. Refusals (nothing written, in
// this order): no budget; an epsilon below the role's min_epsilon; the release quota; the basic
// part; the Gaussian part (gaussian accounting).
void charge(RequestSlot& request) {
    const char* role = role_display_name(request.role);
    Datum role_datum = ObjectIdGetDatum(request.role);
    bool gaussian_accounting = false;
    if (!lock_budget_row(request, role, role_datum, &gaussian_accounting)) return;
    const ReleaseSplit split = split_releases(request, gaussian_accounting);
    CheckArguments arguments = check_arguments(request, role_datum, split);
    double mu2_after = 0.0;
    if (refused_by_limits(request, role, split, arguments, gaussian_accounting, &mu2_after)) return;
    // SPI_tuptable still holds the check_budget row (describe_budget runs only to refuse): spend()
    // adds its exact sums.
    const int64 charge_id = spend(request, role_datum, mu2_after);
    record(request, role_datum, split, charge_id);
    request.outcome.code = ChargeOutcome::Charged;
    request.outcome.charge_id = charge_id;
}

}  // namespace

// A request that failed: nothing of it was committed. No palloc (also called on exit).
void set_failed(ChargeOutcome& outcome, const char* reason, const char* hint) {
    set_outcome(outcome, ChargeOutcome::Failed, "", "Nothing was released or charged.", hint);
    snprintf(outcome.message, sizeof outcome.message, "pgdp could not charge the release: %s", reason);
}

void prepare_budget_plans() { prepare_plans(); }

// One request in a subtransaction: an error (e.g. lock_timeout on a budget row an admin holds)
// fails this request only, and undoes whatever it wrote.
void charge_isolated(RequestSlot& request) {
    MemoryContext context = CurrentMemoryContext;
    ResourceOwner owner = CurrentResourceOwner;
    BeginInternalSubTransaction(nullptr);
    MemoryContextSwitchTo(context);
    PG_TRY();
    {
        charge(request);
        ReleaseCurrentSubTransaction();
        MemoryContextSwitchTo(context);
        CurrentResourceOwner = owner;
    }
    PG_CATCH();
    {
        MemoryContextSwitchTo(context);
        ErrorData* error = CopyErrorData();
        FlushErrorState();
        RollbackAndReleaseCurrentSubTransaction();
        MemoryContextSwitchTo(context);
        CurrentResourceOwner = owner;
        set_failed(request.outcome, error->message,
                   error->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE
                       ? "The role's budget row is locked by another transaction (an admin change in "
                         "progress?)."
                       : "Check that pgdp is installed in this database and up to date (ALTER EXTENSION pgdp "
                         "UPDATE).");
        ereport(LOG, (errmsg("pgdp ledger: charge for role %u failed: %s", request.role, error->message)));
        FreeErrorData(error);
    }
    PG_END_TRY();
}

void forget_budget_plans() {
    for (SPIPlanPtr* plan : {&lock_budget, &renew_budget, &check_budget, &describe_budget, &spend_budget,
                             &record_charge, &next_charge_id}) {
        if (*plan != nullptr) SPI_freeplan(*plan);
        *plan = nullptr;
    }
}

}  // namespace pgdp::pg
