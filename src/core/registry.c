/*
** registry.c -- the list of games.  Adding a game is one line here.
*/
#include "module.h"

#include <string.h>

extern const tf_module carc_module;

static const tf_module *const games[] = {
    &carc_module,
};

int tf_registry_count(void) { return (int)(sizeof games / sizeof games[0]); }

const tf_module *tf_registry_get(int i) {
    if (i < 0 || i >= tf_registry_count()) return NULL;
    return games[i];
}

int tf_registry_find(const char *name) {
    for (int i = 0; i < tf_registry_count(); i++)
        if (strcmp(games[i]->name, name) == 0) return i;
    return -1;
}
