#!/usr/bin/env bash
# Compares include/QNN with the ABI facts of the QNN API version the project claims
# (tests/abi/abi-<version>.json: sizes, offsets, types, values, signatures read off the
# vendor's public headers of that version; no header text).
# Usage: scripts/check-abi.sh [--verbose] [INCLUDE_DIR] [FACTS_JSON] [DEVIATIONS_FILE]
# Needs Debian's python3-clang. Exit 0 only when nothing differs and nothing is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
verbose=()
[ "${1:-}" = --verbose ] && { verbose=(--verbose); shift; }
inc=${1:-$here/include/QNN}
facts=${2:-$here/tests/abi/abi-2.32.json}
dev=${3:-$here/docs/abi-deviations-2.32.txt}
# libclang's Python bindings are Debian's: use Debian's interpreter even under pyenv.
py=/usr/bin/python3; [ -x "$py" ] || py=python3
exec "$py" "$here/tools/abi/abi_facts.py" check "$facts" "$inc" --deviations "$dev" "${verbose[@]}"
