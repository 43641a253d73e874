#!/usr/bin/env bash
# Regenerates the figures of docs/mechanisms.md. Every number comes from pgdp's own SQL functions
# (gaussian_sigma, gaussian_delta, tlap_params), fetched with psql and written as CSV next to this
# script; gnuplot then draws SVG and PNG files from those CSVs only.
#
#   bash docs/figures/make_figures.sh
#       install what is missing (as scripts/demo.sh does, plus gnuplot-nox), build and install
#       the extension, start a throwaway PostgreSQL 15 cluster, query it, remove it
#   PGDP_DSN='host=/tmp/pgdev port=5499 user=postgres dbname=postgres' bash docs/figures/make_figures.sh
#       query an existing server where pgdp is installed (only gnuplot-nox is installed if missing;
#       no build, no throwaway cluster)
#
# Outputs (docs/figures/):
#   sigma_vs_epsilon.csv          sigma/Delta of every gaussian_sigma method, delta = 1e-5,
#                                 epsilon in [0.01, 100] (40 points per decade)
#   classic_crossover.csv         where the classic / dwork2006 formulas, extended beyond
#                                 epsilon = 1, fall below the optimum (epsilon step 0.001)
#   tlap_vs_gaussian.csv          truncated Laplace amplitude and power over the optimal Gaussian's,
#                                 epsilon in [1e-4, 10] (20 points per decade), six deltas
#   sigma_vs_epsilon.{svg,png}    figure (a)
#   tlap_vs_gaussian.{svg,png}    figure (b)
#   quantile_rank_error.csv       the median's rank error of the quantile tree (Laplace, Gaussian)
#                                 and of the exponential mechanism against epsilon (make
#                                 figures-data: docs/figures/accuracy_figures.cpp, the core's own
#                                 release code, fixed seeds)
#   histogram_error.csv           dp_histogram's per-bin error, interval half-width and coverage
#                                 against epsilon, per mechanism (the same program)
#   quantile_rank_error.{svg,png} figure (c)
#   histogram_error.{svg,png}     figure (d)
# The CSVs are deterministic (same build, same bytes); so are the images for a given gnuplot.
set -euo pipefail
# shellcheck source=SCRIPTDIR/../../scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"
cd "$PGDP_ROOT"
FIG_DIR="$PGDP_ROOT/docs/figures"

t0=$SECONDS
if [ -n "${PGDP_DSN:-}" ]; then
    command -v psql >/dev/null 2>&1 || die "psql not found (apt-get install postgresql-client)"
    PGDP_PACKAGES=(gnuplot-nox g++ make libboost-dev)  # ensure_deps installs only what is listed and missing; g++: figures (c), (d)
    ensure_deps
    log "using the existing server of PGDP_DSN"
    psql_cmd=(psql -X -q -v ON_ERROR_STOP=1 "$PGDP_DSN")
else
    PGDP_PACKAGES+=(gnuplot-nox)
    ensure_deps
    check_toolchain
    build_extension
    install_extension
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    start_cluster ""   # default configuration
    psql_cmd=("$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1)
fi
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found after installing gnuplot-nox"

"${psql_cmd[@]}" -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS pgdp' \
    || { print_server_log; die "CREATE EXTENSION pgdp failed"; }
log "pgdp $("${psql_cmd[@]}" -Atc "SELECT extversion FROM pg_extension WHERE extname = 'pgdp'") ready"

# Runs one SELECT and writes its result as CSV with a header (COPY ... TO STDOUT: the file is
# written by this script, not by the server). float8 is printed with extra_float_digits = 1, the
# PostgreSQL 15 default: the shortest text that reads back as the same double.
copy_csv() {
    local out="$1" query="$2"
    "${psql_cmd[@]}" -c "SET extra_float_digits = 1" \
        -c "COPY ($query) TO STDOUT WITH (FORMAT csv, HEADER)" >"$out.tmp" \
        || { rm -f "$out.tmp"; print_server_log; die "query for $(basename "$out") failed"; }
    mv "$out.tmp" "$out"
    log "wrote ${out#"$PGDP_ROOT"/} ($(($(wc -l <"$out") - 1)) rows)"
}

# ---------------------------------------------------------------------------------------------
# (a) sigma/Delta against epsilon at delta = 1e-5 for every method. Epsilon: 10^(k/40 - 2)
# rounded to 5 significant digits (so 1, 10, 100 are exact). classic and dwork2006 are refused by
# pgdp above epsilon = 1 (002 Theorem 1), so their columns are empty there; *_formula columns
# evaluate the same formulas in SQL for every epsilon, and *_formula_delta is the exact delta
# (gaussian_delta, Balle-Wang) that the formula's sigma really achieves: above 1e-5 it is not
# (epsilon, 1e-5)-DP.
copy_csv "$FIG_DIR/sigma_vs_epsilon.csv" "
WITH grid AS (
    SELECT to_char(power(10::float8, k / 40.0 - 2), '9.9999EEEE')::float8 AS epsilon,
           1e-5::float8 AS delta
    FROM generate_series(0, 160) AS k
), formulas AS (
    SELECT epsilon, delta,
           sqrt(2 * ln(1.25 / delta)) / epsilon AS classic_formula,
           sqrt(2 * ln(2 / delta)) / epsilon AS dwork2006_formula
    FROM grid
)
SELECT epsilon, delta,
       gaussian_sigma(epsilon, delta, 1, 'analytic') AS analytic,
       CASE WHEN epsilon <= 1 THEN gaussian_sigma(epsilon, delta, 1, 'classic') END AS classic,
       CASE WHEN epsilon <= 1 THEN gaussian_sigma(epsilon, delta, 1, 'dwork2006') END AS dwork2006,
       gaussian_sigma(epsilon, delta, 1, 'vinterbo') AS vinterbo,
       gaussian_sigma(epsilon, delta, 1, 'vinterbo_closed') AS vinterbo_closed,
       gaussian_sigma(epsilon, delta, 1, 'zhao1') AS zhao1,
       gaussian_sigma(epsilon, delta, 1, 'zhao2') AS zhao2,
       gaussian_sigma(epsilon, delta, 1, 'pdp') AS pdp,
       gaussian_sigma(epsilon, delta, 1, 'zhao3') AS zhao3,
       gaussian_sigma(epsilon, delta, 1, 'zhao4') AS zhao4,
       gaussian_sigma(epsilon, delta, 1, 'zcdp') AS zcdp,
       classic_formula,
       dwork2006_formula,
       gaussian_delta(classic_formula, epsilon) AS classic_formula_delta,
       gaussian_delta(dwork2006_formula, epsilon) AS dwork2006_formula_delta
FROM formulas
ORDER BY epsilon"

# Where the extended formulas stop being (epsilon, delta)-DP: the smallest epsilon on a 0.001 grid
# where the formula's sigma is below the optimal (analytic) sigma, i.e. its exact delta exceeds
# delta. 002 Remark 2 gives G(1e-5) = 8.43 (Dwork-2014 = classic) and 9.39 (Dwork-2006).
copy_csv "$FIG_DIR/classic_crossover.csv" "
WITH params AS (
    SELECT d::float8 AS delta FROM unnest(ARRAY[1e-3, 1e-4, 1e-5, 1e-6]) AS d
), grid AS (
    SELECT delta, k / 1000.0::float8 AS epsilon FROM params, generate_series(1000, 20000) AS k
), sigmas AS (
    SELECT delta, epsilon, gaussian_sigma(epsilon, delta) AS analytic,
           sqrt(2 * ln(1.25 / delta)) / epsilon AS classic_formula,
           sqrt(2 * ln(2 / delta)) / epsilon AS dwork2006_formula
    FROM grid
)
SELECT delta,
       min(epsilon) FILTER (WHERE classic_formula < analytic) AS classic_not_private_from,
       min(epsilon) FILTER (WHERE dwork2006_formula < analytic) AS dwork2006_not_private_from
FROM sigmas
GROUP BY delta
ORDER BY delta"

# ---------------------------------------------------------------------------------------------
# (b) Truncated Laplace against the optimal Gaussian (004 Section 6, Figures 2 and 3).
# amplitude_ratio = E|X_TLap| / (sigma sqrt(2/pi)), power_ratio = E X_TLap^2 / sigma^2 with
# sigma = gaussian_sigma(epsilon, delta) (analytic). Epsilon: 10^(k/20 - 4), 5 significant digits.
copy_csv "$FIG_DIR/tlap_vs_gaussian.csv" "
WITH grid AS (
    SELECT d.delta, to_char(power(10::float8, k / 20.0 - 4), '9.9999EEEE')::float8 AS epsilon
    FROM unnest(ARRAY[1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]::float8[]) AS d(delta),
         generate_series(0, 100) AS k
), calc AS (
    SELECT g.delta, g.epsilon, gaussian_sigma(g.epsilon, g.delta) AS sigma, t.*
    FROM grid AS g, LATERAL tlap_params(g.epsilon, g.delta) AS t
)
SELECT delta, epsilon, sigma, lambda AS tlap_lambda, bound AS tlap_bound,
       amplitude AS tlap_amplitude, power AS tlap_power,
       amplitude / (sigma * sqrt(2 / pi())) AS amplitude_ratio,
       power / (sigma * sigma) AS power_ratio
FROM calc
ORDER BY delta, epsilon"

# ---------------------------------------------------------------------------------------------
# Sanity checks on the fetched numbers (warnings only; the figures are drawn regardless).
# Every DP (and pDP, 002 Lemma 3) method must give sigma >= the optimum; the ratios stay in (0, 1).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { for (m in col) if (m != "epsilon" && m != "delta" && m != "analytic" && m !~ /formula/ &&
                         $col[m] != "" && $col[m] < $col["analytic"])
          printf "pgdp: warning: %s below analytic at epsilon %s\n", m, $1 > "/dev/stderr" }' \
    "$FIG_DIR/sigma_vs_epsilon.csv"
awk -F, 'NR > 1 && !($8 > 0 && $8 < 1 && $9 > 0 && $9 < 1) {
        printf "pgdp: warning: tlap ratio outside (0, 1) at delta %s epsilon %s\n", $1, $2 > "/dev/stderr" }' \
    "$FIG_DIR/tlap_vs_gaussian.csv"

# ---------------------------------------------------------------------------------------------
# Plots. One gnuplot script per figure, run once per terminal (SVG, then PNG with cairo).
plot_sigma() {
    cat <<'GNUPLOT'
reset
set datafile separator ','
set datafile columnheaders
set key outside right top vertical Left reverse samplen 3 width 2 spacing 1.1 font ',9'
set grid xtics mxtics ytics mytics lc rgb '#dddddd' lw 1
set logscale x
set format x '10^{%L}'
set xrange [0.01:100]
set lmargin 12
set rmargin 30
set multiplot layout 2,1 title 'Gaussian noise calibrations, δ = 10^{-5} (pgdp gaussian\_sigma)' font ',12'

# Top: sigma / Delta, log-log.
set logscale y
set format y '%g'
set ytics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100, '1000' 1000)
set mytics 10
set ylabel 'σ / Δ'
set xlabel ''
set yrange [0.03:1000]
plot f using 1:(column('analytic'))        w l lw 2.5 lc rgb '#000000' t 'analytic (optimal)', \
     f using 1:(column('classic'))         w l lw 1.5 lc rgb '#d62728' t 'classic (Dwork-Roth)', \
     f using 1:(column('dwork2006'))       w l lw 1.5 lc rgb '#ff7f0e' t 'dwork2006', \
     f using 1:((column(1) >= 1) ? column('classic_formula') : NaN)   w l lw 1.5 dt 3 lc rgb '#d62728' t 'classic formula for ε > 1 (refused by pgdp)', \
     f using 1:((column(1) >= 1) ? column('dwork2006_formula') : NaN) w l lw 1.5 dt (6,4) lc rgb '#ff7f0e' t 'dwork2006 formula for ε > 1 (refused by pgdp)', \
     f using 1:(column('vinterbo'))        w l lw 1.5 lc rgb '#1f77b4' t 'vinterbo', \
     f using 1:(column('vinterbo_closed')) w l lw 1.5 dt 2 lc rgb '#1f77b4' t 'vinterbo\_closed', \
     f using 1:(column('zhao1'))           w l lw 1.5 lc rgb '#2ca02c' t 'zhao1 (Mechanism 1)', \
     f using 1:(column('zhao2'))           w l lw 1.5 dt 2 lc rgb '#2ca02c' t 'zhao2 (Mechanism 2)', \
     f using 1:(column('pdp'))             w l lw 1.5 lc rgb '#9467bd' t 'pdp (pDP-OPT)', \
     f using 1:(column('zhao3'))           w l lw 1.5 dt 2 lc rgb '#9467bd' t 'zhao3 (Mechanism 3, pDP)', \
     f using 1:(column('zhao4'))           w l lw 1.5 dt 4 lc rgb '#9467bd' t 'zhao4 (Mechanism 4, pDP)', \
     f using 1:(column('zcdp'))            w l lw 1.5 lc rgb '#8c564b' t 'zcdp'

# Bottom: the same over the optimum. Below 1 means not (epsilon, delta)-DP.
unset logscale y
set format y '%.1f'
set ylabel 'σ / σ_{analytic}'
set xlabel 'ε'
set yrange [0.6:2.2]
set ytics 0.2
set object 1 rect from graph 0, first 0.6 to graph 1, first 1 fc rgb '#f2dede' fs solid 0.6 noborder behind
set label 1 'below the optimum: not (ε, δ)-DP' at graph 0.02, first 0.68 font ',9' tc rgb '#a94442'
set arrow 1 from first g_classic, first 0.85 to first g_classic, first 1 lw 1 lc rgb '#d62728' size screen 0.008,20
set label 2 sprintf('classic not DP above ε = %.3g', g_classic) at first g_classic, first 0.83 right font ',9' tc rgb '#d62728'
set arrow 2 from first g_dwork2006, first 0.75 to first g_dwork2006, first 1 lw 1 lc rgb '#ff7f0e' size screen 0.008,20
set label 3 sprintf('dwork2006 not DP above ε = %.3g', g_dwork2006) at first g_dwork2006, first 0.73 right font ',9' tc rgb '#c05f00'
plot f using 1:(column('analytic')/column('analytic'))        w l lw 2.5 lc rgb '#000000' notitle, \
     f using 1:(column('classic')/column('analytic'))         w l lw 1.5 lc rgb '#d62728' notitle, \
     f using 1:(column('dwork2006')/column('analytic'))       w l lw 1.5 lc rgb '#ff7f0e' notitle, \
     f using 1:((column(1) >= 1) ? column('classic_formula')/column('analytic') : NaN)   w l lw 1.5 dt 3 lc rgb '#d62728' notitle, \
     f using 1:((column(1) >= 1) ? column('dwork2006_formula')/column('analytic') : NaN) w l lw 1.5 dt (6,4) lc rgb '#ff7f0e' notitle, \
     f using 1:(column('vinterbo')/column('analytic'))        w l lw 1.5 lc rgb '#1f77b4' notitle, \
     f using 1:(column('vinterbo_closed')/column('analytic')) w l lw 1.5 dt 2 lc rgb '#1f77b4' notitle, \
     f using 1:(column('zhao1')/column('analytic'))           w l lw 1.5 lc rgb '#2ca02c' notitle, \
     f using 1:(column('zhao2')/column('analytic'))           w l lw 1.5 dt 2 lc rgb '#2ca02c' notitle, \
     f using 1:(column('pdp')/column('analytic'))             w l lw 1.5 lc rgb '#9467bd' notitle, \
     f using 1:(column('zhao3')/column('analytic'))           w l lw 1.5 dt 2 lc rgb '#9467bd' notitle, \
     f using 1:(column('zhao4')/column('analytic'))           w l lw 1.5 dt 4 lc rgb '#9467bd' notitle, \
     f using 1:(column('zcdp')/column('analytic'))            w l lw 1.5 lc rgb '#8c564b' notitle
unset multiplot
GNUPLOT
}

plot_tlap() {
    cat <<'GNUPLOT'
reset
set datafile separator ','
set datafile columnheaders
set key outside right top vertical Left reverse width 2 title 'δ' font ',10'
set grid xtics mxtics ytics lc rgb '#dddddd' lw 1
set logscale x
set format x '10^{%L}'
set xrange [1e-4:10]
set yrange [0:1]
set ytics 0.1
set format y '%.1f'
set lmargin 12
set rmargin 16
deltas = '1e-06 1e-05 0.0001 0.001 0.01 0.1'
labels = '10^{-6} 10^{-5} 10^{-4} 10^{-3} 10^{-2} 10^{-1}'
colors = '#440154 #3b528b #21918c #5ec962 #b5a300 #e8590c'
set multiplot layout 2,1 title 'Truncated Laplace (pgdp tlap\_params) over the optimal Gaussian (gaussian\_sigma analytic)' font ',12'
set ylabel 'E|X| ratio'
set xlabel ''
plot for [i=1:6] f using 2:(strcol(1) eq word(deltas, i) ? column('amplitude_ratio') : NaN) \
         w l lw 2 lc rgb word(colors, i) t word(labels, i)
set ylabel 'E X^2 ratio'
set xlabel 'ε'
plot for [i=1:6] f using 2:(strcol(1) eq word(deltas, i) ? column('power_ratio') : NaN) \
         w l lw 2 lc rgb word(colors, i) t word(labels, i)
unset multiplot
GNUPLOT
}

# (c) and (d): the data comes from the core's release code (make figures-data), not from SQL: the
# exponential mechanism is not in SQL (docs/privacy.md says why the tree is), and thousands of
# releases per point would spend budgets for nothing.
make -s figures-data >/dev/null || die "make figures-data failed"
log "wrote docs/figures/quantile_rank_error.csv and histogram_error.csv (make figures-data)"

plot_quantiles() {
    cat <<'GNUPLOT'
reset
set datafile separator ','
set datafile columnheaders
set datafile missing NaN
set key top right font ',10'
set grid xtics mxtics ytics mytics lc rgb '#dddddd' lw 1
set logscale xy
set format x '%g'
set format y '10^{%L}'
set xrange [0.02:10]
set yrange [1e-7:0.5]
set xlabel 'ε'
set ylabel 'rank error of the median (share of n)'
set multiplot layout 1,2 title 'dp\_median: quantile tree against the exponential mechanism, n = 10000, 1000 releases per point' font ',12'
d = 'uniform'
set title d.' data'
plot f using 2:((strcol(1) eq d && strcol(3) eq 'tree laplace') ? column(4) : NaN) w lp lw 2 pt 7 lc rgb '#1f77b4' t 'tree, Laplace: mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'tree laplace') ? column(5) : NaN) w l lw 1 dt 2 lc rgb '#1f77b4' t 'tree, Laplace: 95th percentile', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'tree gaussian') ? column(4) : NaN) w lp lw 2 pt 5 lc rgb '#9467bd' t 'tree, Gaussian (δ 10^{-6}): mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'exponential') ? column(4) : NaN) w lp lw 2 pt 9 lc rgb '#d62728' t 'exponential mechanism: mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'exponential') ? column(5) : NaN) w l lw 1 dt 2 lc rgb '#d62728' t 'exponential mechanism: 95th percentile'
d = 'lognormal'
set title d.' data'
plot f using 2:((strcol(1) eq d && strcol(3) eq 'tree laplace') ? column(4) : NaN) w lp lw 2 pt 7 lc rgb '#1f77b4' t 'tree, Laplace: mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'tree laplace') ? column(5) : NaN) w l lw 1 dt 2 lc rgb '#1f77b4' t 'tree, Laplace: 95th percentile', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'tree gaussian') ? column(4) : NaN) w lp lw 2 pt 5 lc rgb '#9467bd' t 'tree, Gaussian (δ 10^{-6}): mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'exponential') ? column(4) : NaN) w lp lw 2 pt 9 lc rgb '#d62728' t 'exponential mechanism: mean', \
     f using 2:((strcol(1) eq d && strcol(3) eq 'exponential') ? column(5) : NaN) w l lw 1 dt 2 lc rgb '#d62728' t 'exponential mechanism: 95th percentile'
unset multiplot
GNUPLOT
}

plot_histogram() {
    cat <<'GNUPLOT'
reset
set datafile separator ','
set datafile columnheaders
set datafile missing NaN
set grid xtics mxtics ytics mytics lc rgb '#dddddd' lw 1
set logscale x
set format x '%g'
set xrange [0.02:10]
set xlabel 'ε'
set multiplot layout 2,1 title 'dp\_histogram: 10 bins (+ under/overflow) of 10000 rows, 1000 releases per point' font ',12'
set logscale y
set format y '%g'
set key top right font ',10'
set ylabel 'counts'
plot f using 1:(strcol(2) eq 'laplace' ? column(3) : NaN) w lp lw 2 pt 7 lc rgb '#1f77b4' t 'Laplace: mean |error| per bin', \
     f using 1:(strcol(2) eq 'laplace' ? column(4) : NaN) w l lw 1 dt 2 lc rgb '#1f77b4' t 'Laplace: 95 % interval half-width', \
     f using 1:(strcol(2) eq 'tlap' ? column(3) : NaN) w lp lw 2 pt 4 lc rgb '#2ca02c' t 'truncated Laplace (δ 10^{-6}): mean |error|', \
     f using 1:(strcol(2) eq 'gaussian' ? column(3) : NaN) w lp lw 2 pt 5 lc rgb '#9467bd' t 'Gaussian (δ 10^{-6}): mean |error|', \
     f using 1:(strcol(2) eq 'gaussian' ? column(4) : NaN) w l lw 1 dt 2 lc rgb '#9467bd' t 'Gaussian: 95 % interval half-width'
unset logscale y
set yrange [0.9:1.005]
set format y '%.2f'
set ylabel 'per-bin coverage'
set key bottom right font ',10'
plot 0.95 w l lw 1 lc rgb '#000000' dt 3 t 'nominal 0.95', \
     f using 1:(strcol(2) eq 'laplace' ? column(5) : NaN) w lp lw 2 pt 7 lc rgb '#1f77b4' t 'Laplace', \
     f using 1:(strcol(2) eq 'tlap' ? column(5) : NaN) w lp lw 2 pt 4 lc rgb '#2ca02c' t 'truncated Laplace', \
     f using 1:(strcol(2) eq 'gaussian' ? column(5) : NaN) w lp lw 2 pt 5 lc rgb '#9467bd' t 'Gaussian'
unset multiplot
GNUPLOT
}

# The crossover epsilons at delta = 1e-5, read from the CSV above, for the labels of figure (a).
crossover() {
    awk -F, -v column="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == column) c = i }
        NR > 1 && $1 == "1e-05" { print $c }' "$FIG_DIR/classic_crossover.csv"
}
g_classic="$(crossover classic_not_private_from)"
g_dwork2006="$(crossover dwork2006_not_private_from)"
if [ -z "$g_classic" ] || [ -z "$g_dwork2006" ]; then die "no crossover at delta 1e-05 in classic_crossover.csv"; fi

render() {
    local name="$1" body="$2"
    local csv="$FIG_DIR/$name.csv"
    {
        echo "g_classic = $g_classic; g_dwork2006 = $g_dwork2006"
        echo "set encoding utf8"
        echo "set terminal svg size 1000,900 dynamic enhanced font 'Helvetica,12' background rgb 'white'"
        echo "set output '$FIG_DIR/$name.svg'"
        echo "f = '$csv'"
        "$body"
        echo "set output"
        echo "set terminal pngcairo size 1000,900 enhanced font 'Helvetica,11' background rgb 'white'"
        echo "set output '$FIG_DIR/$name.png'"
        "$body"
        echo "set output"
    } | gnuplot || die "gnuplot failed for $name"
    log "wrote docs/figures/$name.svg and .png"
}

render sigma_vs_epsilon plot_sigma
render tlap_vs_gaussian plot_tlap
render quantile_rank_error plot_quantiles
render histogram_error plot_histogram

log "figures done in $((SECONDS - t0)) s"
