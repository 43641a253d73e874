#!/usr/bin/env bash
# The C++ sources follow .clang-format: fails with the offending files listed otherwise.
#   bash scripts/format-check.sh          check (run by scripts/test.sh)
#   bash scripts/format-check.sh --fix    reformat in place
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard 'src/*.cpp' 'src/*.hpp' 'test/unit/*.cpp' 'test/unit/*.hpp' 'bench/*.cpp' \
    'test/reference/*.cpp' 'docs/figures/*.cpp')
if [ "${1:-}" = "--fix" ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
    printf 'not formatted (bash scripts/format-check.sh --fix): %s\n' "${bad[@]}" >&2
    exit 1
fi
echo "format check: ${#files[@]} files follow .clang-format"
