#!/usr/bin/env bash
# Runs the compat clients (see CMakeLists.txt) and checks that every route prints the same
# text as the client built against include/QNN: the 2.7 and 2.13 clients through their
# compat/api-2.<minor>/ libraries and through QNN_OPENQNN_CLIENT_API on the default ones.
# Also: a 2.7 client on the default library fails (the test would notice a missing
# adapter), and a client demanding a newer minor than ours is refused with exit code 3.
# Every client registers the op package PKG and uses one of its ops. Each client also runs
# on libQnnSaver.so (its compat/ one for old clients) forwarding to the CPU backend: same
# text, and the recording, read by qnn-trace-dump, holds the op package and the executes and
# is the same for every client layout.
# usage: run_compat_clients.sh LIBDIR CLIENT_BINDIR PKG TOOL_BINDIR
set -u
lib=$1; bin=$2; pkg=$3; tools=$4; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0
check() { # name expected-file actual-file
  if diff -u "$2" "$3" > "$out/diff"; then echo "ok   $1"; else echo "FAIL $1"; cat "$out/diff"; fail=1; fi
}
"$bin/compat_client_current" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/current.txt" || { echo "FAIL current client"; cat "$out/current.txt"; exit 1; }
grep -q '^providers: 1$' "$out/current.txt" || { echo "FAIL: not exactly one provider"; fail=1; }
for v in 2.7 2.13; do
  exe="$bin/compat_client_${v/./_}"
  "$exe" "$lib/compat/api-$v/libQnnCpu.so" "$lib/compat/api-$v/libQnnSystem.so" "$pkg" > "$out/shim-$v.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v shim client exit $rc"
  check "api-$v client on compat/api-$v/" "$out/current.txt" "$out/shim-$v.txt"
  QNN_OPENQNN_CLIENT_API=$v "$exe" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/env-$v.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v env client exit $rc"
  check "api-$v client with QNN_OPENQNN_CLIENT_API=$v" "$out/current.txt" "$out/env-$v.txt"
done
# Without an adapter the 2.7 client reads the wrong table slots and must not succeed.
if ( "$bin/compat_client_2_7" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/noadapter.txt" 2>&1 ) 2>/dev/null; then
  echo "FAIL: a 2.7 client ran on the 2.32 table without an adapter"; fail=1
else echo "ok   2.7 client without adapter fails"; fi
"$bin/compat_client_newer" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/newer.txt"; rc=$?
if [ $rc = 3 ] && grep -q '^refused' "$out/newer.txt"; then echo "ok   client demanding 2.33 refused"; else echo "FAIL newer-minor client: exit $rc"; fail=1; fi
# Recorded through the Saver, forwarding to the CPU backend.
saver_run() { # name client saver-lib system-lib [env...]
  local name=$1 exe=$2 saver=$3 system=$4; shift 4
  mkdir -p "$out/$name" && (cd "$out/$name" && env "$@" QNN_SAVER_BACKEND="$lib/libQnnCpu.so" \
    "$exe" "$saver" "$system" "$pkg" > client.txt); local rc=$?
  [ $rc = 0 ] || { echo "FAIL $name: client exit $rc"; fail=1; return; }
  check "$name: same output" "$out/current.txt" "$out/$name/client.txt"
  if ! "$tools/qnn-trace-dump" --trace "$out/$name/saver_output/saver_output.qnntrace" > "$out/$name/dump.txt" 2>&1; then
    echo "FAIL $name: qnn-trace-dump"; cat "$out/$name/dump.txt"; fail=1; return
  fi
  local want
  for want in QnnBackend_registerOpPackage ExampleElementwiseCpuInterfaceProvider ScaledSoftplus \
              QnnGraph_execute QnnContext_createFromBinary; do
    grep -q "$want" "$out/$name/dump.txt" || { echo "FAIL $name: recording lacks $want"; fail=1; return; }
  done
  # Handles are recorded as ids and structs in the current layout: every route records the same calls.
  if [ "$name" != saver-current ]; then
    check "$name: recording equals the current client's" "$out/saver-current/dump.txt" "$out/$name/dump.txt"
  else echo "ok   $name: recorded"; fi
}
saver_run saver-current "$bin/compat_client_current" "$lib/libQnnSaver.so" "$lib/libQnnSystem.so"
for v in 2.7 2.13; do
  saver_run "saver-api-$v" "$bin/compat_client_${v/./_}" "$lib/compat/api-$v/libQnnSaver.so" \
    "$lib/compat/api-$v/libQnnSystem.so"
  saver_run "saver-env-$v" "$bin/compat_client_${v/./_}" "$lib/libQnnSaver.so" "$lib/libQnnSystem.so" \
    QNN_OPENQNN_CLIENT_API=$v
done
exit $fail
