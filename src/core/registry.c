/*
** registry.c -- the list of games.  Adding a game is one line here.
*/
#include "module.h"

#include <string.h>

extern const tf_module carc_module;
extern const tf_module cc_module;
extern const tf_module ct_module;

const tf_module *const tf_games[] = {
    &carc_module,
    &cc_module,
    &ct_module,
};

int tf_registry_count(void) { return (int)(sizeof tf_games / sizeof tf_games[0]); }

const tf_module *tf_registry_get(int i) {
    if (i < 0 || i >= tf_registry_count()) return NULL;
    return tf_games[i];
}

int tf_registry_find(const char *name) {
    for (int i = 0; i < tf_registry_count(); i++)
        if (strcmp(tf_games[i]->name, name) == 0) return i;
    return -1;
}
