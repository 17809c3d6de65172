/*
** catalog.h -- the words of the terminal: a language's catalog, and the
** account of an action (tafel_state_describe) put into sentences with it.
**
** A catalog is the language's folder of web/i18n/ (docs/catalogs.md), the
** same files the page reads: common.json, howto.json and the files of one
** game (<game>.json, <game>.*.json).  English is always loaded beneath the
** chosen language, so a key a translation lacks still reads; a key no file
** has comes out as the key itself, which the pseudo-language test finds.
*/
#ifndef TF_CLI_CATALOG_H
#define TF_CLI_CATALOG_H

#include <stddef.h>

typedef struct cJSON cJSON;
typedef struct cli_catalog cli_catalog;

/* The folder that holds one folder per language: $TAFEL_I18N_DIR, else the
** installed data's web/i18n, else the source tree's (data.h). */
const char *cli_catalog_dir(void);

/* The language to speak: lang when given, else the first two letters of
** LC_ALL, LC_MESSAGES or LANG that name a catalog, else "en".  A given lang
** that has no catalog is an error (NULL; why says so). */
const char *cli_catalog_language(const char *lang, char *why, size_t size);

/* Load the catalog of lang for game (a game's name, "carcassonne"; NULL:
** only the common words).  NULL with why filled when a file is unreadable
** or not a flat object of strings. */
cli_catalog *cli_catalog_load(const char *lang, const char *game, char *why, size_t size);
void cli_catalog_free(cli_catalog *catalog);
const char *cli_catalog_language_of(const cli_catalog *catalog);

/* The text of key, or the key itself when no file has it. */
const char *cli_catalog_get(const cli_catalog *catalog, const char *key);
/* Whether a file has key. */
int cli_catalog_has(const cli_catalog *catalog, const char *key);

/* The template of key filled from the fields of obj (a JSON object, may be
** NULL), as docs/catalogs.md says.  malloc'd; NULL when memory ran out. */
char *cli_catalog_format(const cli_catalog *catalog, const char *key, const cJSON *obj);
/* text with how often it came in a row, by the template key ("{move}
** ({count} times)"); malloc'd. */
char *cli_catalog_repeated(const cli_catalog *catalog, const char *key, const char *text,
                           int count);
/* One event of an account as a sentence: the template <game>.event.<kind>. */
char *cli_catalog_event(const cli_catalog *catalog, const cJSON *event);
/* A seat's colour in the language. */
const char *cli_catalog_seat(const cli_catalog *catalog, int seat);

#endif
