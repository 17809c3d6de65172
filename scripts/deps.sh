#!/usr/bin/env bash
# Installs the Debian packages tafel needs, when any is missing.
# Sourced or run by play.sh, test.sh and .ci/run; safe to run again.
# With --fuzz also clang and its libFuzzer runtime (scripts/fuzz.sh), which
# playing and the tests do not need.
set -euo pipefail

packages=(gcc make cmake pkg-config libcjson-dev libcmocka-dev python3 libwebsockets-dev libwebsockets-evlib-uv libuv1-dev libsqlite3-dev libpq-dev libssl-dev zlib1g-dev libsodium-dev)
lean=()   # installed without their recommends
# The engine as WebAssembly (cmake/wasm.cmake: tables on the device, the
# static site): clang for wasm32, its linker and C library, and the
# compiler's wasm runtime, which must match clang's version (14 in bookworm).
packages+=(clang lld wasi-libc libclang-rt-14-dev-wasm32)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-dev)
fi
# The server's tests run in node (node --test, the ws client from npm): a
# node already on the machine will do, else Debian's.
if [ "${1:-}" = "--test" ]; then
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
  [ -x /usr/bin/chromium ] || packages+=(chromium)   # the page's browser tests (scripts/test-web.sh)
  # MPI, so that CI builds `mpirun -np N tafel sim` and runs its test (tests/mpi_test.sh);
  # a build without it is a tafel sim for one machine
  packages+=(openmpi-bin libopenmpi-dev)
  # the libraries of Debian's haproxy, which scripts/proxies.sh unpacks for
  # the cluster's routing tests (tests/cluster/) without installing it as a
  # service (nginx's are installed already)
  packages+=(liblua5.3-0 libopentracing-c-wrapper0)
  # the server's tests on PostgreSQL (scripts/test-server.sh --pg): a
  # throwaway cluster of Debian's PostgreSQL 15, psql to make its databases
  packages+=(postgresql-15 postgresql-client)
  # cmake --install as its users meet it (tests/install_test.sh): the static
  # library linked by clang too, the man page rendered; pip install ./python
  # into a venv of Debian's python, offline (tests/pip_test.sh)
  packages+=(clang man-db python3-venv python3-pip python3-setuptools python3-wheel)
  # tensors as numpy arrays, and the example that trains a value network
  # (python/examples/value_net.py), in Debian's own python; without their
  # recommends (torch's pull in some 180 MB of desktop libraries)
  lean=(python3-numpy python3-torch)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
missing_lean=()
for p in "${lean[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_lean+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_lean[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]} ${missing_lean[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  [ ${#missing[@]} -eq 0 ] ||
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  [ ${#missing_lean[@]} -eq 0 ] ||
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing_lean[@]}" >/dev/null
fi

# The npm packages of the tests, as package-lock.json pins them (the stamp
# is the one scripts/test-server.sh checks).
if [ "${1:-}" = "--test" ] && [ -f "$(dirname "$0")/../package-lock.json" ]; then
  cd "$(dirname "$0")/.."
  stamp=node_modules/.tafel-package-lock.json
  if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
    echo "Installing the npm packages of the tests (package-lock.json)" >&2
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    cp package-lock.json "$stamp"
  fi
fi
