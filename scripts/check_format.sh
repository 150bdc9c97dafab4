#!/usr/bin/env bash
# Checks every C++ file of engine/, app/ and tests/ against .clang-format with clang-format 14
# (the version decides the output, so no other is used), or rewrites them with --fix.
#
#   scripts/check_format.sh          prints each difference and exits 1 when there is one
#   scripts/check_format.sh --fix    formats the files in place
#
# CTest runs the check (Format.SourcesFollowClangFormat) when clang-format-14 is installed;
# scripts/setup-deps.sh --test installs it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
format=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$format" >/dev/null; then
    echo "check_format.sh: $format is not installed (apt-get install clang-format-14)" >&2
    exit 2
fi
cd "$root"
mapfile -d '' files < <(find engine app tests \( -name '*.cpp' -o -name '*.h' \) -type f -print0 | sort -z)
if [ "${1:-}" = "--fix" ]; then
    printf '%s\0' "${files[@]}" | xargs -0 "$format" -i
    echo "check_format.sh: formatted ${#files[@]} files"
    exit 0
fi
if ! printf '%s\0' "${files[@]}" | xargs -0 "$format" --dry-run -Werror; then
    echo "check_format.sh: the files above do not follow .clang-format; run scripts/check_format.sh --fix" >&2
    exit 1
fi
echo "check_format.sh: ${#files[@]} files follow .clang-format"
