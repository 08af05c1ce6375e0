#!/usr/bin/env bash
# Runs the compat clients (see CMakeLists.txt) and checks that every route prints the same
# text as the client built against include/QNN: the 2.7 and 2.13 clients through their
# compat/api-2.<minor>/ libraries and through QNN_OPENQNN_CLIENT_API on the default ones.
# Also: a 2.7 client on the default library fails (the test would notice a missing
# adapter), and a client demanding a newer minor than ours is refused with exit code 3; a
# client of 2.39 headers runs with QNN_OPENQNN_PROVIDER_API=2.39 only.
# Every client registers the op package PKG and uses one of its ops. Each client also runs
# on libQnnSaver.so (its compat/ one for old clients) forwarding to the CPU backend: same
# text, and the recording, read by qnn-trace-dump, holds the op package and the executes and
# is the same for every client layout (apart from the client API it records). The Saver's
# saver_output.c of each recording is compiled with CC against the client's own header set
# and replayed on the client's library and on the default one: its outputs must be the bytes
# the client got.
# usage: run_compat_clients.sh LIBDIR CLIENT_BINDIR PKG TOOL_BINDIR CC
set -u
lib=$1; bin=$2; pkg=$3; tools=$4; cc=$5; out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
fail=0
check() { # name expected-file actual-file
  if diff -u "$2" "$3" > "$out/diff"; then echo "ok   $1"; else echo "FAIL $1"; cat "$out/diff"; fail=1; fi
}
"$bin/compat_client_current" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/current.txt" 2>> "$out/stderr.txt" || { echo "FAIL current client"; cat "$out/current.txt"; exit 1; }
grep -q '^providers: 1$' "$out/current.txt" || { echo "FAIL: not exactly one provider"; fail=1; }
for v in 2.7 2.13; do
  exe="$bin/compat_client_${v/./_}"
  "$exe" "$lib/compat/api-$v/libQnnCpu.so" "$lib/compat/api-$v/libQnnSystem.so" "$pkg" > "$out/shim-$v.txt" 2>> "$out/stderr.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v shim client exit $rc"
  check "api-$v client on compat/api-$v/" "$out/current.txt" "$out/shim-$v.txt"
  QNN_OPENQNN_CLIENT_API=$v "$exe" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/env-$v.txt" 2>> "$out/stderr.txt"; rc=$?
  [ $rc = 0 ] || echo "FAIL api-$v env client exit $rc"
  check "api-$v client with QNN_OPENQNN_CLIENT_API=$v" "$out/current.txt" "$out/env-$v.txt"
done
# Without an adapter the 2.7 client reads the wrong table slots and must not succeed; its
# logCreate lands on tensorCreateContextTensor, and the library says once, on stderr (no log
# callback exists yet), which library or setting serves it. Clients of 2.13 and current
# layouts never see that line (checked in their runs below and above).
for l in libQnnCpu.so libQnnSaver.so; do
  if ( cd "$out" && "$bin/compat_client_2_7" "$lib/$l" "$lib/libQnnSystem.so" "$pkg" > noadapter.txt 2> noadapter.err ) 2>/dev/null; then
    echo "FAIL: a 2.7 client ran on the 2.32 table of $l without an adapter"; fail=1
  elif [ "$(grep -c "compat/api-2.7/$l instead, or set QNN_OPENQNN_CLIENT_API=2.7" "$out/noadapter.err")" != 1 ]; then
    echo "FAIL: a 2.7 client on $l was not told once where its table is"; cat "$out/noadapter.err"; fail=1
  else echo "ok   2.7 client without adapter fails on $l and is told where its table is"; fi
done
"$bin/compat_client_newer" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/newer.txt"; rc=$?
if [ $rc = 3 ] && grep -q '^refused' "$out/newer.txt"; then echo "ok   client demanding 2.33 refused"; else echo "FAIL newer-minor client: exit $rc"; fail=1; fi
# Recorded through the Saver, forwarding to the CPU backend.
# Builds DIR/saver_output/saver_output.c against the header set INCLUDE and replays it on each
# backend: both executes' outputs must equal the client's (DIR/execute.raw, DIR/reloaded.raw).
replay_program() { # name dir include backend...
  local name=$1 dir=$2 include=$3 backend; shift 3
  # shellcheck disable=SC2086  # COMPAT_REPLAY_CFLAGS: the sanitizer flags of a sanitized build, or empty
  if ! "$cc" -Wall -Wextra -Werror ${COMPAT_REPLAY_CFLAGS:-} -DSAVER_OUTPUT_NO_LINKED_BACKEND -I"$include" "$dir/saver_output/saver_output.c" \
       -o "$dir/saver_output/replay" -ldl > "$dir/cc.txt" 2>&1; then
    echo "FAIL $name: saver_output.c does not build against $include"; head -20 "$dir/cc.txt"; fail=1; return
  fi
  for backend in "$@"; do
    rm -rf "$dir/saver_output/replay_output"
    if ! (cd "$dir/saver_output" && ./replay --backend "$backend" > replay.txt 2>&1) ||
       ! cmp -s "$dir/saver_output/replay_output/execute_0_output_0_out.raw" "$dir/execute.raw" ||
       ! cmp -s "$dir/saver_output/replay_output/execute_1_output_0_out.raw" "$dir/reloaded.raw"; then
      echo "FAIL $name: saver_output.c replayed on $backend"; cat "$dir/saver_output/replay.txt"; fail=1; return
    fi
  done
  echo "ok   $name: saver_output.c built against $(basename "$include"), replayed with the client's outputs"
}
saver_run() { # name client saver-lib system-lib include replay-backend [env...]
  local name=$1 exe=$2 saver=$3 system=$4 include=$5 replayLib=$6; shift 6
  mkdir -p "$out/$name" && (cd "$out/$name" && env "$@" QNN_SAVER_BACKEND="$lib/libQnnCpu.so" \
    COMPAT_CLIENT_OUTPUTS="$out/$name" "$exe" "$saver" "$system" "$pkg" > client.txt 2>> "$out/stderr.txt"); local rc=$?
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
  # The client's API is what the Saver could tell from the provider asked for.
  local api; api=$(sed -n 's/^client API //p' "$out/$name/dump.txt")
  [ "$api" = "${want_api:-}" ] || { echo "FAIL $name: recorded client API '$api', expected '${want_api:-}'"; fail=1; }
  # Handles are recorded as ids and structs in the current layout: every route records the same calls.
  grep -v '^client API ' "$out/$name/dump.txt" > "$out/$name/calls.txt"
  if [ "$name" != saver-current ]; then
    check "$name: recording equals the current client's" "$out/saver-current/calls.txt" "$out/$name/calls.txt"
  else echo "ok   $name: recorded"; fi
  replay_program "$name" "$out/$name" "$include" "$replayLib" "$lib/libQnnCpu.so"
}
want_api=$(sed -n 's/^#define QNN_API_VERSION_MAJOR *\([0-9]*\).*/\1/p' "$here/../../include/QNN/QnnCommon.h").$(
  sed -n 's/^#define QNN_API_VERSION_MINOR *\([0-9]*\).*/\1/p' "$here/../../include/QNN/QnnCommon.h")
saver_run saver-current "$bin/compat_client_current" "$lib/libQnnSaver.so" "$lib/libQnnSystem.so" \
  "$here/../../include/QNN" "$lib/libQnnCpu.so"
for v in 2.7 2.13; do
  want_api=$v
  inc=$here/include-$v   # the 2.13 set is assembled in the build tree (tests/compat/CMakeLists.txt)
  [ "$v" = 2.13 ] && inc=${QNN_COMPAT_INCLUDE_2_13:-$bin/include-2.13}
  saver_run "saver-api-$v" "$bin/compat_client_${v/./_}" "$lib/compat/api-$v/libQnnSaver.so" \
    "$lib/compat/api-$v/libQnnSystem.so" "$inc" "$lib/compat/api-$v/libQnnCpu.so"
  saver_run "saver-env-$v" "$bin/compat_client_${v/./_}" "$lib/libQnnSaver.so" "$lib/libQnnSystem.so" \
    "$inc" "$lib/compat/api-$v/libQnnCpu.so" QNN_OPENQNN_CLIENT_API=$v
done
# A client of API 2.39 headers (75-member table, demands minor 39): refused by the default (2.32)
# provider; QNN_OPENQNN_PROVIDER_API=2.39 serves it (same text, its graph validated through
# QnnGraph_validate), on the CPU and through the Saver forwarding to it; a 2.32 client is served
# by that provider too.
"$bin/compat_client_2_39" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" > "$out/c239-default.txt" 2>> "$out/stderr.txt"; rc=$?
if [ $rc = 3 ] && grep -q '^refused' "$out/c239-default.txt"; then echo "ok   2.39 client refused by the default provider"
else echo "FAIL 2.39 client on the default provider: exit $rc"; fail=1; fi
for route in libQnnCpu.so libQnnSaver.so; do
  mkdir -p "$out/c239-$route"
  (cd "$out/c239-$route" && QNN_OPENQNN_PROVIDER_API=2.39 QNN_SAVER_BACKEND="$lib/libQnnCpu.so" \
     COMPAT_CLIENT_OUTPUTS="$out/c239-$route" "$bin/compat_client_2_39" "$lib/$route" "$lib/libQnnSystem.so" "$pkg" \
     > client.txt 2> client.err); rc=$?
  if [ $rc = 0 ] && grep -q '^graphValidate: 4 nodes supported$' "$out/c239-$route/client.err"; then
    check "2.39 client on $route with QNN_OPENQNN_PROVIDER_API=2.39" "$out/current.txt" "$out/c239-$route/client.txt"
  else echo "FAIL 2.39 client on $route with QNN_OPENQNN_PROVIDER_API=2.39: exit $rc"; cat "$out/c239-$route/client.err"; fail=1; fi
done
# Its recording holds the 2.39 calls; qnn-trace-replay replays them (the package from the recorded
# bytes, the validation with the recorded outcome; the client's second, failing free is skipped
# as every failed call is) and saver_output.c, built against include/QNN
# (2.32: it reads the appended members after the table), replays them with the client's outputs.
d="$out/c239-libQnnSaver.so"
"$tools/qnn-trace-dump" --trace "$d/saver_output/saver_output.qnntrace" > "$d/dump.txt" 2>&1
for want in QnnBackend_registerOpPackageFromBinary QnnGraph_validate QnnGraph_freeValidationResult; do
  grep -q "$want" "$d/dump.txt" || { echo "FAIL 2.39 recording lacks $want"; fail=1; }
  grep -q "$want" "$d/saver_output/saver_output.c" && ! grep -q "$want: not replayed" "$d/saver_output/saver_output.c" ||
    { echo "FAIL saver_output.c does not replay $want"; fail=1; }
done
if "$tools/qnn-trace-replay" --trace "$d/saver_output/saver_output.qnntrace" --backend "$lib/libQnnCpu.so" --compare \
     > "$d/replay.txt" 2>&1 && ! grep -q "skipped.*\(QnnGraph_validate\|FromBinary\)" "$d/replay.txt"; then
  echo "ok   qnn-trace-replay replays the 2.39 calls"
else echo "FAIL qnn-trace-replay on the 2.39 recording"; cat "$d/replay.txt"; fail=1; fi
replay_program "2.39 client via the Saver" "$d" "$here/../../include/QNN" "$lib/libQnnCpu.so"
QNN_OPENQNN_PROVIDER_API=2.39 "$bin/compat_client_current" "$lib/libQnnCpu.so" "$lib/libQnnSystem.so" "$pkg" \
  > "$out/current-on-2.39.txt" 2>> "$out/stderr.txt" || { echo "FAIL 2.32 client on the 2.39 provider"; fail=1; }
check "2.32 client on the 2.39 provider" "$out/current.txt" "$out/current-on-2.39.txt"
# No client of a layout the library serves is told about the 2.7 table.
if grep -q "QNN_OPENQNN_CLIENT_API=2.7" "$out/stderr.txt"; then
  echo "FAIL: a client of a served layout was told to use the 2.7 table"; cat "$out/stderr.txt"; fail=1
else echo "ok   no hint for clients of served layouts"; fi
exit $fail
