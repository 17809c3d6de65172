# The static site (build/site/): the page of web/ made to work from any
# folder of any static file server, with the engine as WebAssembly, a web
# app manifest, icons and a service worker that keeps it all for offline
# play (docs/site.md).  `make site` (in ALL) makes it; cmake/site_build.cmake
# does the work at build time, so that editing web/ and running make
# refreshes the site (the glob re-runs when a file is added or removed).
# Included only when the module is built (TAFEL_WASM, cmake/wasm.cmake):
# without it the site could play nothing.

set(TAFEL_SITE_DIR ${PROJECT_BINARY_DIR}/site)
file(GLOB_RECURSE TAFEL_SITE_INPUTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/web/*)
add_custom_command(
  OUTPUT ${TAFEL_SITE_DIR}/sw.js
  COMMAND ${CMAKE_COMMAND} -DWEB=${PROJECT_SOURCE_DIR}/web -DWASM=${TAFEL_WASM_FILE}
          -DOUT=${TAFEL_SITE_DIR} -P ${PROJECT_SOURCE_DIR}/cmake/site_build.cmake
  DEPENDS ${TAFEL_SITE_INPUTS} ${TAFEL_WASM_FILE} ${PROJECT_SOURCE_DIR}/cmake/site_build.cmake
  COMMENT "Making the static site (site/)"
  VERBATIM)
add_custom_target(site ALL DEPENDS ${TAFEL_SITE_DIR}/sw.js)
add_dependencies(site wasm)
