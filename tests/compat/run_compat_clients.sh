#!/usr/bin/env bash
# Runs the compat clients (see CMakeLists.txt) and checks that every route prints the same
# text as the client built against include/QNN: the 2.7 and 2.13 clients through their
# compat/api-2.<minor>/ libraries and through QNN_OPENQNN_CLIENT_API on the default ones.
# Also: a 2.7 client on the default library fails (the test would notice a missing
# adapter), and a client demanding a newer minor than ours is refused with exit code 3.
# usage: run_compat_clients.sh LIBDIR BINDIR
set -u
lib=$1; bin=$2; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
check() { # name expected-file actual-file
  if diff -u "$2" "$3" > "$out/diff"; then echo "ok   $1"; else echo "FAIL $1"; cat "$out/diff"; fail=1; fi
}
"$bin/compat_client_current" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" > "$out/current.txt" || { echo "FAIL current client"; cat "$out/current.txt"; exit 1; }
grep -q '^providers: 1$' "$out/current.txt" || { echo "FAIL: not exactly one provider"; fail=1; }
for v in 2.7 2.13; do
  exe="$bin/compat_client_${v/./_}"
  "$exe" "$lib/compat/api-$v/libQnnCpu.so" "$lib/compat/api-$v/libQnnSystem.so" > "$out/shim-$v.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v shim client exit $rc"
  check "api-$v client on compat/api-$v/" "$out/current.txt" "$out/shim-$v.txt"
  QNN_OPENQNN_CLIENT_API=$v "$exe" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" > "$out/env-$v.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v env client exit $rc"
  check "api-$v client with QNN_OPENQNN_CLIENT_API=$v" "$out/current.txt" "$out/env-$v.txt"
done
# Without an adapter the 2.7 client reads the wrong table slots and must not succeed.
if "$bin/compat_client_2_7" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" > "$out/noadapter.txt" 2>&1; then
  echo "FAIL: a 2.7 client ran on the 2.32 table without an adapter"; fail=1
else echo "ok   2.7 client without adapter fails"; fi
"$bin/compat_client_newer" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" > "$out/newer.txt"; rc=$?
if [ $rc = 3 ] && grep -q '^refused' "$out/newer.txt"; then echo "ok   client demanding 2.33 refused"; else echo "FAIL newer-minor client: exit $rc"; fail=1; fi
exit $fail
