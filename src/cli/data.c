/*
** data.c -- where the program finds its data (see data.h).
**
** An installed tafel is <prefix>/bin/tafel with its data in
** <prefix>/share/tafel: TAFEL_DATA_FROM_BIN is that folder relative to the
** program's own (from /proc/self/exe), so a prefix moved as a whole still
** works.  A tafel run from its build tree has no such folder beside it and
** reads the source tree's (TAFEL_SOURCE_DATA_DIR), as before it could be
** installed; its module (tafel.wasm) is then the one the build made beside
** the program, build/wasm/tafel.wasm.  Found once (pthread_once: sim's threads may ask together).
*/
#include "data.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TAFEL_DATA_FROM_BIN
#define TAFEL_DATA_FROM_BIN "../share/tafel"
#endif
#ifndef TAFEL_SOURCE_DATA_DIR
#define TAFEL_SOURCE_DATA_DIR "."
#endif

static char data_dir[PATH_MAX], i18n_dir[PATH_MAX + 16], wasm_file[PATH_MAX + 16];
static pthread_once_t data_once = PTHREAD_ONCE_INIT;

/* The program's own folder; 0 and "." when /proc cannot tell. */
static int program_dir(char *out, size_t size) {
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    char *slash = n > 0 ? (out[n] = '\0', strrchr(out, '/')) : NULL;
    if (slash) *slash = '\0';
    else snprintf(out, size, ".");
    return slash != NULL;
}

/* The installed folder beside the program (exe_dir), when it holds the page. */
static int installed_dir(const char *exe_dir, char *out, size_t size) {
    int len = snprintf(out, size, "%s/%s", exe_dir, TAFEL_DATA_FROM_BIN);
    if (len < 0 || (size_t)len >= size) return 0;
    char page[PATH_MAX + 32];
    snprintf(page, sizeof page, "%s/web/index.html", out);
    struct stat st;
    return stat(page, &st) == 0 && S_ISREG(st.st_mode);
}

static void find_data_dir(void) {
    char exe_dir[PATH_MAX];
    if (program_dir(exe_dir, sizeof exe_dir) && installed_dir(exe_dir, data_dir, sizeof data_dir)) {
        snprintf(wasm_file, sizeof wasm_file, "%s/tafel.wasm", data_dir);
    } else {
        snprintf(data_dir, sizeof data_dir, "%s", TAFEL_SOURCE_DATA_DIR);
        snprintf(wasm_file, sizeof wasm_file, "%s/wasm/tafel.wasm", exe_dir);
    }
    snprintf(i18n_dir, sizeof i18n_dir, "%s/web/i18n", data_dir);
}

const char *cli_data_dir(void) {
    pthread_once(&data_once, find_data_dir);
    return data_dir;
}

const char *cli_i18n_dir(void) {
    pthread_once(&data_once, find_data_dir);
    return i18n_dir;
}

const char *cli_wasm_file(void) {
    pthread_once(&data_once, find_data_dir);
    return wasm_file;
}
