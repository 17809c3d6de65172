/*
** json_print.h -- cJSON trees as text, the same text cJSON_PrintUnformatted
** writes, without printf for the integers that make up nearly every number
** of a state message.
*/
#ifndef TAFEL_JSON_PRINT_H
#define TAFEL_JSON_PRINT_H

#include <cjson/cJSON.h>

/* item as unformatted JSON, to be freed with free(); NULL when out of
** memory or when cJSON could not print it either. */
char *json_print(const cJSON *item);

#endif
