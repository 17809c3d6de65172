# Makes the static site: cmake -DWEB=web -DWASM=tafel.wasm -DOUT=site -P
# cmake/site_build.cmake (run by the target site, cmake/site.cmake; the
# offline test runs it too, to make a second version of a site).
#
# OUT is made afresh: a copy of WEB (no README.md, no service worker
# template), the module, and
#   index.html  web/index.html with root-relative paths made relative, so the
#               site works at any path (https://example.org/games/tafel/),
#               and the manifest, icons and <meta name="tafel-site"
#               content="static"> (web/offline/register.mjs registers the
#               service worker only then, so tafel serve's page never does);
#   sw.js       web/offline/sw.template.js with the list of every file and
#               the site's version: a SHA-256 over every file's, so any
#               change to any file makes a new service worker, and nothing
#               else does.

foreach(var WEB WASM OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "site_build.cmake: -D${var}=... is missing")
  endif()
endforeach()
if(NOT EXISTS ${WASM})
  message(FATAL_ERROR "site_build.cmake: no module at ${WASM} (make wasm)")
endif()

file(REMOVE_RECURSE ${OUT})
file(GLOB_RECURSE files RELATIVE ${WEB} ${WEB}/*)
list(FILTER files EXCLUDE REGEX "(^|/)README\\.md$")
list(REMOVE_ITEM files offline/sw.template.js index.html)
foreach(f IN LISTS files)
  get_filename_component(dir ${OUT}/${f} DIRECTORY)
  file(COPY ${WEB}/${f} DESTINATION ${dir})
endforeach()
file(COPY ${WASM} DESTINATION ${OUT})

file(READ ${WEB}/index.html page)
string(REPLACE "href=\"/" "href=\"./" page "${page}")
string(REPLACE "src=\"/" "src=\"./" page "${page}")
string(REPLACE "<link rel=\"icon\" href=\"data:,\">"
       "<link rel=\"icon\" href=\"./icons/tafel.svg\" type=\"image/svg+xml\">" page "${page}")
string(REPLACE "</head>" "<meta name=\"tafel-site\" content=\"static\">
<meta name=\"theme-color\" content=\"#1f5fbf\">
<link rel=\"manifest\" href=\"./manifest.webmanifest\">
<link rel=\"apple-touch-icon\" href=\"./icons/tafel-192.png\">
</head>" page "${page}")
if(page MATCHES "(href|src)=\"/")
  message(FATAL_ERROR "site_build.cmake: web/index.html has a root-relative path left")
endif()
file(WRITE ${OUT}/index.html "${page}")

# The version and the list, in a fixed order (GLOB's is not).
file(GLOB_RECURSE site RELATIVE ${OUT} ${OUT}/*)
list(SORT site)
set(hashes "")
set(names "")
foreach(f IN LISTS site)
  if(f MATCHES "[\"\\\\]")
    message(FATAL_ERROR "site_build.cmake: a file name the service worker cannot list: ${f}")
  endif()
  file(SHA256 ${OUT}/${f} h)
  string(APPEND hashes "${h}  ${f}\n")
  string(APPEND names "\n    \"${f}\",")
endforeach()
string(SHA256 version "${hashes}")
# the template is JavaScript as it stands (web/ is type-checked): the list
# replaces its one-string array
file(READ ${WEB}/offline/sw.template.js sw)
string(REGEX REPLACE ",$" "\n" names "${names}")
string(REPLACE "[\"@TAFEL_SITE_FILES@\"]" "[${names}]" sw "${sw}")
string(REPLACE "@TAFEL_SITE_VERSION@" "${version}" sw "${sw}")
if(sw MATCHES "@TAFEL_SITE_")
  message(FATAL_ERROR "site_build.cmake: sw.template.js: a placeholder left unfilled")
endif()
file(WRITE ${OUT}/sw.js "${sw}")
