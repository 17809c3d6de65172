#!/usr/bin/env bash
# Runs the page's checks (web/): the type check of its JavaScript
# (tsc -p tsconfig.json: --checkJs, strict) and the browser tests
# (tests/web/) with node's test runner: bash scripts/test-web.sh [path/to/tafel]
#
# The browser is Debian's chromium (/usr/bin/chromium, or TAFEL_CHROMIUM),
# driven by playwright-core through its executablePath: no browser is ever
# downloaded.  playwright-core and TypeScript come from npm, pinned in
# package-lock.json (`npm ci` when node_modules was made from another lock
# file).  The browser tests need node 20 or later (skipped, saying so, on
# an older node: Debian 12's is 18).  Without chromium they fail,
# unless TAFEL_WEB_TESTS_OPTIONAL=1, when they are skipped with a message
# (the type check runs all the same).
# TAFEL_SITE names the static site offline.test.mjs serves (default: site/
# beside the tafel binary, build/site).
# TAFEL_SCREENSHOTS=1 also writes the screenshots the tests take into
# docs/screenshots/ (for the README).  Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

tafel=${1:-build/tafel}
[[ $tafel == /* ]] || tafel=$PWD/$tafel
if [[ ! -x $tafel ]]; then
    echo "test-web.sh: no tafel binary at $tafel (build it, or give its path)" >&2
    exit 2
fi
for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "test-web.sh: $tool is not installed" >&2; exit 2; }
done
# node_modules is fresh when it was installed from this very lock file
# (the same stamp as scripts/test-server.sh).
stamp=node_modules/.tafel-package-lock.json
if [[ ! -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json "$stamp"
fi

echo "test-web.sh: tsc -p tsconfig.json (web/, --checkJs, strict)"
node_modules/.bin/tsc -p tsconfig.json

# playwright-core needs node 20; Debian 12's own nodejs is 18.  There the
# type check above is all that runs, and this says so plainly.
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 20)); then
    echo "test-web.sh: SKIPPED the browser tests: node $(node --version) is older than 20," \
         "which playwright-core needs (the type check passed)"
    exit 0
fi

chromium=${TAFEL_CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
    if [[ ${TAFEL_WEB_TESTS_OPTIONAL:-} == 1 ]]; then
        echo "test-web.sh: SKIPPED the browser tests (the type check passed): no chromium at $chromium" \
             "(apt-get install chromium, or bash scripts/deps.sh --test)"
        exit 0
    fi
    echo "test-web.sh: no chromium at $chromium (apt-get install chromium, or" \
         "bash scripts/deps.sh --test; TAFEL_WEB_TESTS_OPTIONAL=1 skips these tests)" >&2
    exit 2
fi

# The static site (make site) beside the program, for offline.test.mjs,
# which says it skips when there is none (built without the wasm toolchain).
site=${TAFEL_SITE:-$(dirname "$tafel")/site}

# Explicit files: node 20 takes no globs.  scripts/node-suite.sh reprints the
# failures at the end of the log and runs a failing file once more alone (a
# rerun that passes is reported as FLAKY).
TAFEL_CLI=$tafel TAFEL_CHROMIUM=$chromium TAFEL_SITE=$site \
    exec bash scripts/node-suite.sh web tests/web/*.test.mjs
