#!/usr/bin/env bash
# Checks that test/regress_schedule and sql/, expected/ agree: every sql/*.sql is scheduled
# (a test that is not scheduled never runs), and every scheduled test has sql/NAME.sql and
# expected/NAME.out. Exit 1 with one line per problem otherwise.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

schedule=test/regress_schedule
[ -r "$schedule" ] || { echo "schedule-check: $schedule not found" >&2; exit 1; }

# Lines `test: a b c` (a parallel group lists several names).
mapfile -t scheduled < <(sed -n 's/^test: *//p' "$schedule" | tr -s ' \t' '\n' | sed '/^$/d')

problems=0
declare -A seen=()
for t in "${scheduled[@]}"; do
    if [ -n "${seen[$t]:-}" ]; then
        echo "schedule-check: $t is scheduled twice in $schedule" >&2; problems=$((problems + 1))
    fi
    seen[$t]=1
    [ -f "sql/$t.sql" ] || { echo "schedule-check: $t is scheduled but sql/$t.sql is missing" >&2; problems=$((problems + 1)); }
    [ -f "expected/$t.out" ] || { echo "schedule-check: $t is scheduled but expected/$t.out is missing" >&2; problems=$((problems + 1)); }
done
shopt -s nullglob
for f in sql/*.sql; do
    t="$(basename "$f" .sql)"
    [ -n "${seen[$t]:-}" ] || { echo "schedule-check: $f is not listed in $schedule (add 'test: $t')" >&2; problems=$((problems + 1)); }
done
for f in expected/*.out; do
    t="$(basename "$f" .out)"
    t="${t%_[0-9]}"   # alternative outputs NAME_1.out
    [ -f "sql/$t.sql" ] || { echo "schedule-check: $f has no sql/$t.sql" >&2; problems=$((problems + 1)); }
done

if [ "$problems" -gt 0 ]; then
    echo "schedule-check: $problems problem(s)" >&2
    exit 1
fi
echo "schedule-check: ${#scheduled[@]} scheduled test(s), all sql/*.sql listed"
