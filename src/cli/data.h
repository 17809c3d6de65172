/*
** data.h -- where the program finds its data: the page (web/) and the
** catalogs (web/i18n).
*/
#ifndef TF_CLI_DATA_H
#define TF_CLI_DATA_H

/* The folder holding web/: <prefix>/share/tafel for an installed tafel
** (<prefix>/bin/tafel), else the source tree the program was built from. */
const char *cli_data_dir(void);
/* Its web/i18n, the catalogs. */
const char *cli_i18n_dir(void);
/* Where the engine as WebAssembly would be: <prefix>/share/tafel/tafel.wasm
** for an installed tafel, else wasm/tafel.wasm beside the program (the
** build tree).  The file may not exist (built without the wasm toolchain). */
const char *cli_wasm_file(void);

#endif
