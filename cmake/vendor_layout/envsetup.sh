# Source this file (bash or zsh) to use this OpenQNN install as a QNN SDK, as the vendor's
# bin/envsetup.sh is used: it sets QNN_SDK_ROOT and puts the tools, the libraries and the
# Python package (qnn: binding, converters, quantizer, tools) on PATH, LD_LIBRARY_PATH and PYTHONPATH.
if [ -n "${BASH_SOURCE:-}" ]; then
  _openqnn_here=${BASH_SOURCE[0]}
elif [ -n "${ZSH_VERSION:-}" ]; then
  eval '_openqnn_here=${(%):-%x}'
else
  _openqnn_here=$0
fi
QNN_SDK_ROOT=$(cd "$(dirname "$_openqnn_here")/.." && pwd)
export QNN_SDK_ROOT
export PATH="$QNN_SDK_ROOT/bin/x86_64-linux-clang${PATH:+:$PATH}"
export LD_LIBRARY_PATH="$QNN_SDK_ROOT/lib/x86_64-linux-clang${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$QNN_SDK_ROOT/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
unset _openqnn_here
echo "[INFO] QNN_SDK_ROOT: $QNN_SDK_ROOT (OpenQNN)"
