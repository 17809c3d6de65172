#!/usr/bin/env bash
# tests/install_test.sh BUILD_DIR SOURCE_DIR -- cmake --install, as a user
# of the library and of the program sees it.
#
# Installs the already built tree into a temporary prefix, moves the prefix
# (everything must be found relative to where it lies), then:
#  - builds tests/install/play.c, which plays a seeded game through the
#    public API and round-trips its record, against libtafel.so with
#    `pkg-config --cflags --libs tafel`, against libtafel.a with
#    `pkg-config --static` (gcc -fno-lto, and clang when installed: the
#    installed archive holds object code, not LTO IR), and with a CMake
#    project (find_package(tafel), tafel::tafel shared and static); every
#    build prints the same game, and the installed tafel replays its record
#    to the same scores;
#  - checks that a static link without --static's extra libraries fails
#    (so Libs.private is what makes it link);
#  - runs the installed tafel with the source tree hidden when the system
#    lets an unprivileged user do so (unshare): its catalogs and its page
#    come from <prefix>/share/tafel (a catalog and a page marker that only
#    the installed copy has);
#  - renders the man page and checks it names every command and option of
#    `tafel --help` and `tafel COMMAND --help`.
set -euo pipefail

build=$(cd "${1:?usage: install_test.sh BUILD_DIR SOURCE_DIR}" && pwd)
src=$(cd "${2:?usage: install_test.sh BUILD_DIR SOURCE_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

# Installed once, then moved: the .pc, the CMake package and the program
# must not remember where they were installed.
cmake --install "$build" --prefix "$tmp/first" >/dev/null
mv "$tmp/first" "$tmp/prefix"
prefix=$tmp/prefix
for f in include/tafel.h lib/libtafel.a lib/libtafel.so lib/pkgconfig/tafel.pc \
         lib/cmake/tafel/tafelConfig.cmake bin/tafel share/man/man1/tafel.1 \
         share/tafel/web/index.html share/tafel/web/i18n/en/common.json; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(readlink "$prefix/lib/libtafel.so")" = libtafel.so.0 ] || fail "libtafel.so is no link to libtafel.so.0"
readelf -d "$prefix/lib/libtafel.so.0" | grep -q 'SONAME.*libtafel.so.0' || fail "no SONAME libtafel.so.0"
if readelf -S -W "$prefix/lib/libtafel.a" | grep -q '\.gnu\.lto_'; then
    fail "the installed libtafel.a holds LTO IR"
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
play_c=$src/tests/install/play.c
game=cardcassonne
cd "$tmp"

# The README's two commands ("Link against tafel"), app.c made play.c.
readme=$(awk '/^## Link against tafel/ {on = 1} on && /^```sh/ {code = 1; next}
              code && /^```/ {exit} code' "$src/README.md" | sed 's/ *# [a-z].*$//')
shared_cmd=$(sed -n 1p <<<"$readme")
static_cmd=$(sed -n 2p <<<"$readme")
[[ "$shared_cmd" == "cc app.c "* && "$static_cmd" == "cc app.c "* ]] ||
    fail "README's link commands not found: $readme"
readme_link() { # CC OUTPUT COMMAND
    eval "${3/#cc app.c/$1 -Wall -Wextra -Werror -o $2 $play_c}"
}

# (a) shared, with pkg-config
readme_link gcc play-shared "$shared_cmd"
readelf -d play-shared | grep -q 'NEEDED.*libtafel.so.0' || fail "play-shared does not use libtafel.so.0"
expected=$(LD_LIBRARY_PATH=$prefix/lib ./play-shared "$game" 7 shared.json)
echo "shared: $expected"

# The record's scores as the installed program replays them.
scores=$("$prefix/bin/tafel" replay shared.json --json |
         python3 -c 'import json,sys; print(" ".join("%g" % s for s in json.load(sys.stdin)["scores"]))')
case "$expected" in *"scores $scores,"*) ;; *) fail "tafel replay: scores $scores, play: $expected" ;; esac

# (b) static, with pkg-config --static: -l:libtafel.a takes the archive
# though libtafel.so lies beside it.
compilers=("gcc -fno-lto" gcc)
command -v clang >/dev/null && compilers+=(clang) || echo "install_test: no clang, static link tried with gcc only"
for cc in "${compilers[@]}"; do
    readme_link "$cc" play-static "$static_cmd"
    readelf -d play-static | grep -q 'libtafel' && fail "$cc: play-static still needs libtafel.so"
    got=$(./play-static "$game" 7 static.json)
    [ "$got" = "$expected" ] || fail "$cc static: '$got', shared: '$expected'"
    echo "static ($cc): ok"
done
# Without --static the archive's needs (cJSON, libm) are missing.
if gcc -o play-bare "$play_c" $(pkg-config --cflags tafel) \
       $(pkg-config --libs tafel | sed 's/-ltafel\b/-l:libtafel.a/') 2>bare.log; then
    fail "libtafel.a linked without pkg-config --static's libraries"
fi
grep -q 'undefined reference to .cJSON_' bare.log || fail "no cJSON missing without --static: $(tail -3 bare.log)"

# (c) CMake: find_package(tafel) and tafel::tafel, shared then static.
for kind in shared static; do
    static=OFF
    [ $kind = static ] && static=ON
    cmake -S "$src/tests/install" -B "cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
          -DTAFEL_STATIC=$static -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "cmake-$kind" >/dev/null
    if [ $kind = shared ]; then
        readelf -d cmake-shared/play | grep -q 'NEEDED.*libtafel.so.0' || fail "CMake shared: no libtafel.so.0"
    else
        readelf -d cmake-static/play | grep -q libtafel && fail "CMake static: needs libtafel.so"
    fi
    # CMake links the shared one with an rpath to the prefix.
    got=$(./cmake-$kind/play "$game" 7 cmake.json)
    [ "$got" = "$expected" ] || fail "CMake $kind: '$got', pkg-config: '$expected'"
    echo "cmake ($kind): ok"
done
# The version file refuses another minor version (0.x promises nothing across them).
if cmake -S "$src/tests/install" -B cmake-wrong -DCMAKE_PREFIX_PATH="$prefix" \
         -DTAFEL_WANT=0.2 >wrong.log 2>&1; then
    fail "find_package(tafel 0.2) accepted tafel $(pkg-config --modversion tafel)"
fi
grep -q 'tafelConfigVersion\|version' wrong.log || fail "find_package(tafel 0.2): $(tail -3 wrong.log)"

# The program, from the prefix alone: a catalog only the installed data has
# (xx, a copy of en), and a page with a marker only the installed one has.
cp -r "$prefix/share/tafel/web/i18n/en" "$prefix/share/tafel/web/i18n/xx"
echo '<!-- the installed page -->' >>"$prefix/share/tafel/web/index.html"
cat >installed.sh <<'EOF'
set -euo pipefail
prefix=$1
"$prefix/bin/tafel" sim catan_cards --players random,greedy --games 4 >sim.txt
grep -q 'greedy' sim.txt
"$prefix/bin/tafel" replay shared.json --step --lang xx >words.txt
[ -s words.txt ]
"$prefix/bin/tafel" serve --port 0 --db serve.db >serve.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q 'http://' serve.log && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*/' serve.log | head -1)
[ -n "$url" ] || { cat serve.log >&2; exit 1; }
python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$url" >page.html
grep -q 'the installed page' page.html
EOF
if unshare -rm true 2>/dev/null; then
    # The source tree (and the build in it) out of reach: an empty folder over it.
    unshare -rm bash -c 'mount -t tmpfs none "$1" && [ ! -e "$1/web" ] && cd "$2" && bash installed.sh "$3"' \
        _ "$src" "$tmp" "$prefix" || fail "the installed tafel without its source tree"
    echo "installed tafel, source tree hidden: ok"
else
    bash installed.sh "$prefix" || fail "the installed tafel"
    echo "installed tafel: ok (source tree not hidden: unshare not allowed here)"
fi
# The language xx exists only in the installed catalogs: the build's tafel
# (reading the source tree) does not know it.
if "$build/tafel" replay shared.json --step --lang xx >/dev/null 2>&1; then
    fail "the build's tafel found the installed catalogs"
fi

# The man page renders without warnings and names every command and option.
man_text=$(LC_ALL=C.UTF-8 MANWIDTH=100 man -l "$prefix/share/man/man1/tafel.1" 2>man.err)
[ -s man.err ] && fail "man: $(cat man.err)"
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$prefix/share/man/man1/tafel.1" 2>&1)
[ -z "$warnings" ] || fail "groff: $warnings"
grep -q 'tafel sim' <<<"$man_text" || fail "man page without tafel sim"
man_source=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$prefix/share/man/man1/tafel.1")
commands=$("$prefix/bin/tafel" --help | awk '/^commands:/ {on=1; next} on && NF {print $1} on && !NF {on=0}')
[ -n "$commands" ] || fail "no commands in tafel --help"
for cmd in $commands; do
    grep -q "^\.SS \"tafel $cmd" <<<"$man_source" || fail "man page: no section for tafel $cmd"
    for opt in $("$prefix/bin/tafel" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -q -- "$opt\b" <<<"$man_source" || fail "man page: tafel $cmd $opt missing"
    done
done
echo "man page: ok"
echo "install_test: ok"
