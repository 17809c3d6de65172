# The engine as WebAssembly (build/wasm/tafel.wasm): the same sources as the
# library, compiled by Debian's clang for wasm32-wasi against wasi-libc and
# linked by lld as a reactor module (no main; the page and node call the
# exports).  Every TAFEL_API call is exported (-fvisibility=hidden keeps the
# rest inside), with malloc and free for the JS shim (web/engine/tafel.mjs).
# record.c stays out: it needs cJSON, which Debian ships only as a native
# library; records in the page are JSON in JS (web/local/record.mjs).
#
# A plain custom command, not a second toolchain: the program is built by
# the native compiler, and the module is one clang call over ~60 files.
# Without the toolchain (clang, wasm-ld, /usr/include/wasm32-wasi: packages
# clang, lld, wasi-libc, libclang-rt-14-dev-wasm32, scripts/deps.sh) the
# module is skipped with a message, and the page offers no local tables.

find_program(TAFEL_WASM_CLANG NAMES clang-14 clang)
find_program(TAFEL_WASM_LD NAMES wasm-ld-14 wasm-ld)
set(TAFEL_WASI_SYSROOT "/usr" CACHE PATH "where include/wasm32-wasi and lib/wasm32-wasi are")
set(TAFEL_WASM OFF)
if(TAFEL_WASM_CLANG AND TAFEL_WASM_LD AND EXISTS "${TAFEL_WASI_SYSROOT}/include/wasm32-wasi/stdio.h"
   AND EXISTS "${TAFEL_WASI_SYSROOT}/lib/wasm32-wasi/libc.a")
  set(TAFEL_WASM ON)
endif()

if(TAFEL_WASM)
  set(TAFEL_WASM_SOURCES ${TAFEL_LIBRARY_SOURCES})
  list(FILTER TAFEL_WASM_SOURCES EXCLUDE REGEX "/src/core/record\\.c$")
  file(GLOB_RECURSE TAFEL_WASM_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*.h)
  set(TAFEL_WASM_FILE ${PROJECT_BINARY_DIR}/wasm/tafel.wasm)
  get_filename_component(TAFEL_WASM_LD_DIR ${TAFEL_WASM_LD} DIRECTORY)
  add_custom_command(
    OUTPUT ${TAFEL_WASM_FILE}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/wasm
    COMMAND ${TAFEL_WASM_CLANG} --target=wasm32-wasi --sysroot=${TAFEL_WASI_SYSROOT}
            -B${TAFEL_WASM_LD_DIR} -O2 -std=c11 -Wall -Wextra -Werror
            -fvisibility=hidden -D_POSIX_C_SOURCE=200809L -mexec-model=reactor
            -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src/core
            -Wl,--export-dynamic -Wl,--export=malloc -Wl,--export=free
            -Wl,-z,stack-size=1048576
            -o ${TAFEL_WASM_FILE} ${TAFEL_WASM_SOURCES}
    DEPENDS ${TAFEL_WASM_SOURCES} ${TAFEL_WASM_HEADERS}
            ${PROJECT_SOURCE_DIR}/include/tafel.h
    COMMENT "Building the engine as WebAssembly (wasm/tafel.wasm)"
    VERBATIM)
  add_custom_target(wasm ALL DEPENDS ${TAFEL_WASM_FILE})
  add_dependencies(wasm tafel-nets)
  message(STATUS "WebAssembly: ${TAFEL_WASM_FILE}")
else()
  message(STATUS "WebAssembly: skipped (needs clang, lld and wasi-libc: scripts/deps.sh)")
endif()
