/*
** say.c -- the terminal picture in the words of a catalog (see say.h).
*/
#include "say.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY_OPEN '\x1e'
#define SAY_CLOSE '\x1f'

typedef struct out {
    char *p;
    size_t len, cap;
    int oom;
} out;

static void put(out *o, const char *s, size_t n) {
    if (o->oom) return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 1024;
        while (cap < o->len + n + 1) cap *= 2;
        char *p = realloc(o->p, cap);
        if (!p) {
            o->oom = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = 0;
}

/* Characters, not bytes: a column is as wide as what a terminal shows. */
static int utf8_length(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* One event's words, or 0 when it is not an event (then it is shown as it
** is). */
static int say_event(const cli_catalog *catalog, const char *game, const char *json, size_t n,
                     out *o) {
    cJSON *event = cJSON_ParseWithLength(json, n);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
    if (!cJSON_IsObject(event) || !cJSON_IsString(kind)) {
        cJSON_Delete(event);
        return 0;
    }
    char key[192];
    snprintf(key, sizeof key, "%s.view.%s", game, kind->valuestring);
    char *said = cli_catalog_format(catalog, key, event);
    if (said) {
        put(o, said, strlen(said));
        const cJSON *pad = cJSON_GetObjectItemCaseSensitive(event, "pad");
        int width = cJSON_IsNumber(pad) && pad->valueint < 200 ? pad->valueint : 0;
        for (int i = utf8_length(said); i < width; i++) put(o, " ", 1);
    } else {
        o->oom = 1;
    }
    free(said);
    cJSON_Delete(event);
    return 1;
}

char *cli_say_picture(const cli_catalog *catalog, const char *game, const char *picture) {
    out o = {0};
    put(&o, "", 0);
    for (const char *p = picture; *p;) {
        const char *open = strchr(p, SAY_OPEN);
        if (!open) {
            put(&o, p, strlen(p));
            break;
        }
        put(&o, p, (size_t)(open - p));
        const char *close = strchr(open + 1, SAY_CLOSE);
        const char *next_open = strchr(open + 1, SAY_OPEN);
        if (!close || (next_open && next_open < close) ||
            !say_event(catalog, game, open + 1, (size_t)(close - open - 1), &o)) {
            put(&o, open, 1); /* not an event: the byte as it is, and on */
            p = open + 1;
            continue;
        }
        p = close + 1;
    }
    if (o.oom) {
        free(o.p);
        return NULL;
    }
    return o.p;
}

char *cli_picture(const tafel_state *state, int seat, int flags, const cli_catalog *catalog,
                  const char *game) {
    if (!catalog) return tafel_state_render(state, seat, flags & ~TAFEL_RENDER_WORDS);
    char *picture = tafel_state_render(state, seat, flags | TAFEL_RENDER_WORDS);
    if (!picture) return NULL;
    char *said = cli_say_picture(catalog, game, picture);
    free(picture);
    return said;
}
