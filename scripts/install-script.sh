#!/usr/bin/env bash
# Writes pgdp's install script, extension/pgdp--VERSION.sql (VERSION: default_version in
# pgdp.control), from extension/pgdp.sql.in: drops the template's --! lines and replaces the line
# @aggregates@ with the transition functions and every aggregate, one CREATE AGGREGATE per
# signature, so that `grep 'CREATE AGGREGATE dp_sum('` finds each. The generated script is
# checked in (it is what CREATE EXTENSION runs); `make` regenerates it when this script, the
# template or pgdp.control changed.
#
#   bash scripts/install-script.sh           write it
#   bash scripts/install-script.sh --check   exit 1 if the checked-in script differs from what
#                                            would be written, or if its aggregates and the C++
#                                            table of aggregates disagree (run by scripts/test.sh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version="$(sed -n "s/^default_version = '\([^']*\)'.*/\1/p" pgdp.control)"
[ -n "$version" ] || { echo "install-script: no default_version in pgdp.control" >&2; exit 1; }
template=extension/pgdp.sql.in
target="extension/pgdp--${version}.sql"

# The three forms of every aggregate, by the privacy parameters after the value (and its bounds):
#   epsilon                       pure epsilon-DP, mechanism 'laplace'
#   epsilon, delta                mechanism 'auto'
#   epsilon, delta, mechanism     'gaussian', 'tlap', 'laplace' or 'auto'
FORMS=('float8' 'float8, float8' 'float8, float8, text')
VALUE_TYPES=(int2 int4 int8 float4 float8 numeric)
BOUNDS='float8, float8'  # lower, upper
# The same with the argument names the aggregates show (\da, \df, pg_get_function_arguments): one
# vocabulary, value, lower, upper, q, bins, epsilon, delta, mechanism, min_units, alpha, the same
# name for the same meaning in every aggregate. The transition functions keep unnamed arguments:
# one serves aggregates whose arguments at a position mean different things, and no SQL can call
# it (no SQL value has its state's type internal).
NAMED_FORMS=('epsilon float8' 'epsilon float8, delta float8' 'epsilon float8, delta float8, mechanism text')
NAMED_BOUNDS='lower float8, upper float8'

# What every pgdp aggregate shares: an internal fixed-point state (32 bytes), an exact combine
# function with versioned (de)serialisation for parallel plans, and a final function that adds the
# noise and may modify the state (READ_WRITE: PostgreSQL never calls it twice on one state, so no
# two releases can share a state).
SHARED_OPTIONS='STYPE = internal, SSPACE = 32, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_state_combine, SERIALFUNC = pgdp_state_serialize, DESERIALFUNC = pgdp_state_deserialize,
    PARALLEL = SAFE'

# transition NAME SYMBOL ARGUMENTS
transition() {
    printf "CREATE FUNCTION %s(internal, %s) RETURNS internal\nAS 'MODULE_PATHNAME', '%s' LANGUAGE C PARALLEL SAFE;\n" \
        "$1" "$3" "$2"
}

# dp_histogram's own state: the exact count of every bin (bins + 2 int64), its own combine and
# (de)serialisation; the same final-function rule.
HISTOGRAM_OPTIONS='STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_histogram_combine, SERIALFUNC = pgdp_histogram_serialize,
    DESERIALFUNC = pgdp_histogram_deserialize, PARALLEL = SAFE'

# aggregate NAME ARGUMENTS SFUNC FINALFUNC COMMENT [OPTIONS]; ARGUMENTS are named ("value int4,
# lower float8, ..."); the comment names the aggregate by its argument types alone.
aggregate() {
    local name="$1" arguments="$2" sfunc="$3" finalfunc="$4" comment="$5" options="${6:-$SHARED_OPTIONS}"
    printf 'CREATE AGGREGATE %s(%s) (\n    SFUNC = %s, FINALFUNC = %s,\n    %s);\n' \
        "$name" "$arguments" "$sfunc" "$finalfunc" "$options"
    printf "COMMENT ON AGGREGATE %s(%s) IS\n    '%s';\n" "$name" "$(argument_types "$arguments")" "${comment//\'/\'\'}"
}
# argument_types "value int4, lower float8": "int4, float8" (the names dropped).
argument_types() { sed -E 's/(^|, )[a-z_]+ /\1/g' <<<"$1"; }

sum_final() {
    case "$1" in
        int2 | int4 | int8) echo pgdp_sum_final_int8 ;;
        numeric) echo pgdp_sum_final_numeric ;;
        *) echo pgdp_sum_final_float8 ;;
    esac
}
# mean_final TYPE, variance_final TYPE, stddev_final TYPE: numeric for numeric values, else float8.
mean_final() { typed_final pgdp_mean_final "$1"; }
variance_final() { typed_final pgdp_variance_final "$1"; }
stddev_final() { typed_final pgdp_stddev_final "$1"; }
typed_final() {
    case "$2" in
        numeric) echo "$1_numeric" ;;
        *) echo "$1_float8" ;;
    esac
}

SUM_COMMENT='Differentially private sum of values clamped to [lower, upper]; sensitivity max(|lower|, |upper|).'
MEAN_COMMENT='Differentially private mean of values clamped to [lower, upper]; half the budget on the centred sum, half on the count.'
COUNT_COMMENT='Differentially private count of the rows of the group; sensitivity 1.'
SUM_CI_COMMENT='dp_sum with its (1 - alpha) interval and noise scale, as a dp_release record.'
MEAN_CI_COMMENT='dp_mean with its (1 - alpha) interval (union bound over sum and count) and noise scale.'
GROUPS_COMMENT='Private group selection (HAVING dp_groups(...)): true if the group may be released, decided from its number of privacy units.'
COUNT_CI_COMMENT='dp_count with its (1 - alpha) interval and noise scale, as a dp_release record.'
VARIANCE_COMMENT='Differentially private population variance of values clamped to [lower, upper], in [0, (upper - lower)^2/4]; epsilon split 1 : 2^(2/3) : 1 over the centred sum of squares, the centred sum and the count.'
STDDEV_COMMENT='Differentially private population standard deviation of values clamped to [lower, upper] (the square root of dp_variance), in [0, (upper - lower)/2].'
VARIANCE_CI_COMMENT='dp_variance with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.'
STDDEV_CI_COMMENT='dp_stddev with its (1 - alpha) interval (union bound over its three releases) and approximate noise scale (delta method), as a dp_release record.'

# The comment of a *_ci form that stops at epsilon.
ci_default_comment() {
    printf 'dp_%s_ci with its 95 %% interval (alpha 0.05) and noise scale, as a dp_release record.' "$1"
}

aggregates() {
    local form type name
    cat <<'EOF'
-- Transition functions. Their value argument is "any" (as for the built-in count("any")): the
-- aggregates below are typed, so PostgreSQL has already resolved and coerced the value to one of
-- the aggregate's types, and the C code reads which from the call's Aggref. One function per form
-- of the privacy parameters; none can run outside an aggregate (AggCheckCallContext).
EOF
    for form in "${FORMS[@]}"; do transition pgdp_clamped_transfn pgdp_clamped_transfn "\"any\", $BOUNDS, $form"; done
    for form in "${FORMS[@]}"; do transition pgdp_clamped_ci_transfn pgdp_clamped_ci_transfn "\"any\", $BOUNDS, $form, float8"; done
    for form in "${FORMS[@]}"; do transition pgdp_count_transfn pgdp_count_transfn "$form"; done
    for form in "${FORMS[@]}"; do transition pgdp_count_ci_transfn pgdp_count_ci_transfn "$form, float8"; done
    # The *_ci forms that stop at epsilon (alpha 0.05: the 95 % interval).
    transition pgdp_clamped_ci_transfn pgdp_clamped_ci_transfn "\"any\", $BOUNDS, float8"
    transition pgdp_count_ci_transfn pgdp_count_ci_transfn "float8"
    transition pgdp_count_transfn pgdp_count_transfn "float8, float8, text, int8"
    cat <<'EOF'

-- The aggregates: dp_sum, dp_mean, dp_variance and dp_stddev (and their *_ci forms) for every
-- value type and form,
--   (value, lower, upper, epsilon [, delta [, mechanism]] [, alpha])
-- (a *_ci form that stops at epsilon has alpha 0.05: with delta or a mechanism, alpha is written)
-- dp_sum returns bigint for integer values, numeric for numeric and double precision otherwise;
-- dp_mean, dp_variance and dp_stddev return numeric for numeric values and double precision
-- otherwise; the *_ci forms
-- return a dp_release. dp_count and dp_count_ci take no value: (epsilon [, delta [, mechanism]]).
EOF
    for type in "${VALUE_TYPES[@]}"; do
        echo
        echo "-- $type values"
        for form in "${NAMED_FORMS[@]}"; do
            aggregate dp_sum "value $type, $NAMED_BOUNDS, $form" pgdp_clamped_transfn "$(sum_final "$type")" "$SUM_COMMENT"
            aggregate dp_mean "value $type, $NAMED_BOUNDS, $form" pgdp_clamped_transfn "$(mean_final "$type")" "$MEAN_COMMENT"
            aggregate dp_sum_ci "value $type, $NAMED_BOUNDS, $form, alpha float8" pgdp_clamped_ci_transfn pgdp_sum_ci_final \
                "$SUM_CI_COMMENT"
            aggregate dp_mean_ci "value $type, $NAMED_BOUNDS, $form, alpha float8" pgdp_clamped_ci_transfn pgdp_mean_ci_final \
                "$MEAN_CI_COMMENT"
            aggregate dp_variance "value $type, $NAMED_BOUNDS, $form" pgdp_clamped_transfn "$(variance_final "$type")" \
                "$VARIANCE_COMMENT"
            aggregate dp_stddev "value $type, $NAMED_BOUNDS, $form" pgdp_clamped_transfn "$(stddev_final "$type")" \
                "$STDDEV_COMMENT"
            aggregate dp_variance_ci "value $type, $NAMED_BOUNDS, $form, alpha float8" pgdp_clamped_ci_transfn \
                pgdp_variance_ci_final "$VARIANCE_CI_COMMENT"
            aggregate dp_stddev_ci "value $type, $NAMED_BOUNDS, $form, alpha float8" pgdp_clamped_ci_transfn \
                pgdp_stddev_ci_final "$STDDEV_CI_COMMENT"
        done
        for name in sum mean variance stddev; do
            aggregate "dp_${name}_ci" "value $type, $NAMED_BOUNDS, epsilon float8" pgdp_clamped_ci_transfn \
                "pgdp_${name}_ci_final" "$(ci_default_comment "$name")"
        done
    done
    echo
    echo "-- dp_count"
    for form in "${NAMED_FORMS[@]}"; do
        aggregate dp_count "$form" pgdp_count_transfn pgdp_count_final "$COUNT_COMMENT"
        aggregate dp_count_ci "$form, alpha float8" pgdp_count_ci_transfn pgdp_count_ci_final "$COUNT_CI_COMMENT"
    done
    aggregate dp_count_ci "epsilon float8" pgdp_count_ci_transfn pgdp_count_ci_final "$(ci_default_comment count)"
    echo
    echo "-- dp_groups: private group selection, (epsilon, delta [, mechanism [, min_units]])"
    for form in 'epsilon float8, delta float8' 'epsilon float8, delta float8, mechanism text' \
        'epsilon float8, delta float8, mechanism text, min_units int8'; do
        aggregate dp_groups "$form" pgdp_count_transfn pgdp_groups_final "$GROUPS_COMMENT"
    done
    histogram_aggregates
    quantile_aggregates
    distinct_aggregates
    omitted_bounds_aggregates
}

# The forms without bounds (0.14; also written into the 0.13 -> 0.14 update script): each stands
# for its NULL-bound form, into which pgdp's planner rewrites the call (src/pg/calls/omitted_bounds.hpp).
# (value, epsilon [, delta]) only: with a mechanism or the *_ci forms' alpha they would collide
# with the bounded forms' argument lists.
OMITTED_FORMS=('float8' 'float8, float8')
NAMED_OMITTED_FORMS=('epsilon float8' 'epsilon float8, delta float8')
OMITTED_OPTIONS="$SHARED_OPTIONS"  # never run: the same declarations as the forms they stand for
omitted_final() {
    case "$1" in
        int8 | float8 | numeric) echo "pgdp_omitted_bounds_final_$1" ;;
        'float8[]') echo pgdp_omitted_bounds_final_float8_array ;;
    esac
}
# sum_type TYPE: dp_sum's result type for values of TYPE; float_or_numeric TYPE: the others'.
sum_type() { case "$1" in int2 | int4 | int8) echo int8 ;; numeric) echo numeric ;; *) echo float8 ;; esac; }
float_or_numeric() { case "$1" in numeric) echo numeric ;; *) echo float8 ;; esac; }
omitted_comment() { echo "$1 with its bounds omitted: the planner rewrites the call into $1(value, NULL, NULL, ...), whose bounds pgdp estimates (or, for the quantiles, covers with its log-linear leaves)."; }

omitted_bounds_aggregates() {
    local type form result arguments name
    echo
    echo "-- Forms without bounds (0.14): dp_sum(value, epsilon [, delta]) is dp_sum(value, NULL, NULL,"
    echo "-- epsilon [, delta]), likewise dp_mean, dp_variance, dp_stddev, dp_median, dp_quantile(value, q, ...)"
    echo "-- and dp_quantiles(value, q[], ...). pgdp's planner rewrites each call into that form; these"
    echo "-- functions only refuse a call planned without pgdp."
    for result in int8 float8 numeric 'float8[]'; do
        printf "CREATE FUNCTION %s(internal) RETURNS %s\nAS 'MODULE_PATHNAME', 'pgdp_omitted_bounds_final' LANGUAGE C PARALLEL SAFE;\n" \
            "$(omitted_final "$result")" "$result"
    done
    for arguments in '"any", float8' '"any", float8, float8' '"any", float8, float8, float8' '"any", float8[], float8' \
        '"any", float8[], float8, float8'; do
        transition pgdp_omitted_bounds_transfn pgdp_omitted_bounds_transfn "$arguments"
    done
    for type in "${VALUE_TYPES[@]}"; do
        for form in "${NAMED_OMITTED_FORMS[@]}"; do
            aggregate dp_sum "value $type, $form" pgdp_omitted_bounds_transfn "$(omitted_final "$(sum_type "$type")")" \
                "$(omitted_comment dp_sum)" "$OMITTED_OPTIONS"
            for name in dp_mean dp_variance dp_stddev; do
                aggregate "$name" "value $type, $form" pgdp_omitted_bounds_transfn \
                    "$(omitted_final "$(float_or_numeric "$type")")" "$(omitted_comment "$name")" \
                    "$OMITTED_OPTIONS"
            done
        done
    done
    for form in "${NAMED_OMITTED_FORMS[@]}"; do
        aggregate dp_median "value float8, $form" pgdp_omitted_bounds_transfn "$(omitted_final float8)" \
            "$(omitted_comment dp_median)" "$OMITTED_OPTIONS"
        aggregate dp_quantile "value float8, q float8, $form" pgdp_omitted_bounds_transfn "$(omitted_final float8)" \
            "$(omitted_comment dp_quantile)" "$OMITTED_OPTIONS"
        aggregate dp_quantiles "value float8, q float8[], $form" pgdp_omitted_bounds_transfn "$(omitted_final 'float8[]')" \
            "$(omitted_comment dp_quantiles)" "$OMITTED_OPTIONS"
    done
}

DISTINCT_OPTIONS='STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_count_distinct_combine, SERIALFUNC = pgdp_count_distinct_serialize,
    DESERIALFUNC = pgdp_count_distinct_deserialize, PARALLEL = SAFE'
DISTINCT_COMMENT='Differentially private number of distinct non-NULL values (count(DISTINCT value)); sensitivity 1 per row.'

# dp_count_distinct(value, epsilon [, delta [, mechanism]]) -> bigint, any hashable type (0.11).
distinct_aggregates() {
    local form
    echo
    echo "-- dp_count_distinct: (value, epsilon [, delta [, mechanism]]), a value of any hashable type"
    for form in "${FORMS[@]}"; do transition pgdp_count_distinct_transfn pgdp_count_distinct_transfn "anyelement, $form"; done
    for form in "${NAMED_FORMS[@]}"; do
        aggregate dp_count_distinct "value anyelement, $form" pgdp_count_distinct_transfn pgdp_count_distinct_final \
            "$DISTINCT_COMMENT" "$DISTINCT_OPTIONS"
    done
}

HISTOGRAM_COMMENT='Differentially private histogram: the counts of bins equal-width bins over [lower, upper) and of the values below lower and from upper on, one release; sensitivity 1 per row.'

QUANTILE_OPTIONS='STYPE = internal, FINALFUNC_MODIFY = READ_WRITE,
    COMBINEFUNC = pgdp_quantile_combine, SERIALFUNC = pgdp_quantile_serialize,
    DESERIALFUNC = pgdp_quantile_deserialize, PARALLEL = SAFE'
QUANTILE_COMMENT='Differentially private quantile of values clamped to [lower, upper] (q in [0, 1]), from a noisy quantile tree (branching 16, height 4).'
QUANTILES_COMMENT='Differentially private quantiles of values clamped to [lower, upper], one per level of q, all from one noisy quantile tree: one release.'
MEDIAN_COMMENT='Differentially private median of values clamped to [lower, upper], from a noisy quantile tree.'

# dp_quantile(value, lower, upper, q, epsilon [, delta [, mechanism]]) -> float8, dp_quantiles with
# q float8[] -> float8[], dp_median(value, lower, upper, epsilon [, delta [, mechanism]]) -> float8 (0.11).
quantile_aggregates() {
    local form
    echo
    echo "-- dp_quantile, dp_quantiles, dp_median; other value types are cast to float8"
    # One declaration per signature: dp_median's (value, lower, upper, epsilon, delta) is
    # dp_quantile's (value, lower, upper, q, epsilon); the C function reads which from its Aggref.
    local -A declared=()
    local arguments
    for form in "${FORMS[@]}"; do
        for arguments in "float8, $BOUNDS, float8, $form" "float8, $BOUNDS, float8[], $form" "float8, $BOUNDS, $form"; do
            [ -n "${declared[$arguments]:-}" ] && continue
            declared[$arguments]=1
            transition pgdp_quantile_transfn pgdp_quantile_transfn "$arguments"
        done
    done
    for form in "${NAMED_FORMS[@]}"; do
        aggregate dp_quantile "value float8, $NAMED_BOUNDS, q float8, $form" pgdp_quantile_transfn pgdp_quantile_final \
            "$QUANTILE_COMMENT" "$QUANTILE_OPTIONS"
        aggregate dp_quantiles "value float8, $NAMED_BOUNDS, q float8[], $form" pgdp_quantile_transfn pgdp_quantiles_final \
            "$QUANTILES_COMMENT" "$QUANTILE_OPTIONS"
        aggregate dp_median "value float8, $NAMED_BOUNDS, $form" pgdp_quantile_transfn pgdp_median_final \
            "$MEDIAN_COMMENT" "$QUANTILE_OPTIONS"
    done
}

# dp_histogram(value, lower, upper, bins, epsilon [, delta [, mechanism]]) -> dp_histogram_bin[]
# (0.11; also written into the 0.10 -> 0.11 update script).
histogram_aggregates() {
    local form
    echo
    echo "-- dp_histogram: (value, lower, upper, bins, epsilon [, delta [, mechanism]]); other value types are cast to float8"
    for form in "${FORMS[@]}"; do transition pgdp_histogram_transfn pgdp_histogram_transfn "float8, $BOUNDS, int4, $form"; done
    for form in "${NAMED_FORMS[@]}"; do
        aggregate dp_histogram "value float8, $NAMED_BOUNDS, bins int4, $form" pgdp_histogram_transfn pgdp_histogram_final \
            "$HISTOGRAM_COMMENT" "$HISTOGRAM_OPTIONS"
    done
}

generate() {
    [ "$(grep -c '^@aggregates@$' "$template")" = 1 ] || {
        echo "install-script: $template must hold the line @aggregates@ once" >&2
        exit 1
    }
    echo "-- pgdp $version: install script. GENERATED by scripts/install-script.sh from $template;"
    echo "-- edit those and run make (the tests check that this file is up to date)."
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
            '--!'*) ;;
            '@aggregates@') aggregates ;;
            *) printf '%s\n' "$line" ;;
        esac
    done <"$template"
}

# The C++ side: kAggregates in src/pg/calls/aggregate_identity.hpp, one row per line, from which
# the server identifies its aggregates (by final function) and reads their arguments.
IDENTITY=src/pg/calls/aggregate_identity.hpp
SUPPORT_FUNCTIONS=(src/pg/sql/aggregates.cpp src/pg/sql/histogram_aggregate.cpp src/pg/sql/quantile_aggregate.cpp
                   src/pg/sql/distinct_aggregate.cpp)

# Prints "name symbol min max" per row of kAggregates; fails on a row it cannot read.
table_rows() {
    local block rows parsed
    block="$(sed -n '/kAggregates\[\] = {/,/^};/p' "$IDENTITY")"
    rows="$(grep -c '^ *{"' <<<"$block" || true)"
    parsed="$(sed -n 's/^ *{"\([a-z_]*\)", *AggregateKind::[A-Za-z]*, *\(true\|false\), *"\([a-z_]*\)", *{[-0-9, ]*}, *\([0-9]*\), *\([0-9]*\)},.*/\1 \3 \4 \5/p' <<<"$block")"
    if [ "$rows" = 0 ] || [ "$(grep -c . <<<"$parsed")" != "$rows" ]; then
        echo "install-script: cannot read the rows of kAggregates in $IDENTITY (one row per line)" >&2
        return 1
    fi
    printf '%s\n' "$parsed"
}

# The install script's aggregates against the table: every CREATE AGGREGATE names a row, every
# row has aggregates, each aggregate's FINALFUNC is a C function whose symbol is the row's, and
# the fewest and most arguments of a name's signatures are the row's; every row's symbol is a
# support function of the library (PG_FUNCTION_INFO_V1).
check_aggregate_table() {
    local rows
    rows="$(table_rows)" || return 1
    local missing="" name symbol _
    while read -r name symbol _; do
        grep -q "^PG_FUNCTION_INFO_V1($symbol);" "${SUPPORT_FUNCTIONS[@]}" || missing+=" $name:$symbol"
    done <<<"$rows"
    if [ -n "$missing" ]; then
        echo "install-script: final functions of kAggregates without PG_FUNCTION_INFO_V1 in ${SUPPORT_FUNCTIONS[*]}:$missing" >&2
        return 1
    fi
    awk -v table="$IDENTITY" '
        FNR == NR { symbol[$1] = $2; fewest[$1] = $3; most[$1] = $4; next }
        /^CREATE / { function_name = "" }
        /^CREATE FUNCTION / { function_name = $3; sub(/\(.*/, "", function_name) }
        function_name != "" && /AS .MODULE_PATHNAME., ./ {
            c_symbol = $0; sub(/.*MODULE_PATHNAME., ./, "", c_symbol); sub(/[^a-z_0-9].*/, "", c_symbol)
            c_function[function_name] = c_symbol; function_name = ""
        }
        /^CREATE AGGREGATE / {
            aggregate = $3; sub(/\(.*/, "", aggregate)
            arguments = $0; sub(/^[^(]*\(/, "", arguments); sub(/\).*/, "", arguments)
            count = split(arguments, unused, ",")
        }
        aggregate != "" && /FINALFUNC = / {
            final = $0; sub(/.*FINALFUNC = /, "", final); sub(/[^a-z_0-9].*/, "", final)
            # A form without bounds (omitted_bounds_aggregates) stands for the row of its name.
            if (c_function[final] == "pgdp_omitted_bounds_final") {
                if (!(aggregate in symbol)) print "aggregate " aggregate " without bounds is not a row of kAggregates"
                aggregate = ""; next
            }
            if (!(aggregate in low) || count < low[aggregate]) low[aggregate] = count
            if (!(aggregate in high) || count > high[aggregate]) high[aggregate] = count
            finals[aggregate] = finals[aggregate] " " final; aggregate = ""
        }
        END {
            for (name in low) {
                if (!(name in symbol)) { print "aggregate " name " is not a row of kAggregates"; continue }
                if (low[name] != fewest[name] || high[name] != most[name])
                    print name ": " low[name] "-" high[name] " arguments, kAggregates says " fewest[name] "-" most[name]
                n = split(finals[name], list, " ")
                for (i = 1; i <= n; ++i) {
                    if (!(list[i] in c_function)) print name ": FINALFUNC " list[i] " is not a C function of the library"
                    else if (c_function[list[i]] != symbol[name])
                        print name ": FINALFUNC " list[i] " is C symbol " c_function[list[i]] ", kAggregates says " symbol[name]
                }
            }
            for (name in symbol) if (!(name in low)) print "kAggregates row " name " has no CREATE AGGREGATE"
        }' <(printf '%s\n' "$rows") "$target" | sort -u >"$CHECK_OUT"
    if [ -s "$CHECK_OUT" ]; then
        sed 's/^/install-script: /' "$CHECK_OUT" >&2
        echo "install-script: $target and kAggregates ($IDENTITY) disagree" >&2
        return 1
    fi
}

if [ "${1:-}" = "--check" ]; then
    if ! generate | cmp -s - "$target"; then
        echo "install-script: $target is not what scripts/install-script.sh generates from $template" >&2
        echo "install-script: run 'bash scripts/install-script.sh' (or make) and commit the result" >&2
        generate | diff -u "$target" - | head -n 40 >&2 || true
        exit 1
    fi
    echo "install-script: $target is up to date"
    CHECK_OUT="$(mktemp)"
    trap 'rm -f "$CHECK_OUT"' EXIT
    check_aggregate_table || exit 1
    echo "install-script: its $(grep -c '^CREATE AGGREGATE ' "$target") aggregates match kAggregates ($IDENTITY)"
else
    tmp="$(mktemp "$target.XXXXXX")"
    generate >"$tmp"
    chmod 644 "$tmp"
    mv "$tmp" "$target"
    echo "install-script: wrote $target"
fi
