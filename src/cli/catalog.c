/*
** catalog.c -- the terminal's words (see catalog.h, docs/catalogs.md).
**
** The files are few and small (some hundreds of keys), so lookups walk the
** loaded JSON objects; the chosen language's files come first, English's
** after them.  Filling a template is one pass over it: a placeholder takes
** its field from the event and says it by the field's name (a seat, seats,
** one number per seat, a symbol, a count with its plural).
*/
#include "catalog.h"
#include "data.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 16
#define MAX_DEPTH 4 /* sub-phrases within sub-phrases */

struct cli_catalog {
    char lang[16];
    char game[32];
    cJSON *file[MAX_FILES]; /* the language's files, then English's */
    int nfiles;
};

const char *cli_catalog_dir(void) {
    const char *dir = getenv("TAFEL_I18N_DIR");
    return dir && *dir ? dir : cli_i18n_dir();
}

static int language_exists(const char *lang) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/common.json", cli_catalog_dir(), lang);
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* A language name is a folder name: letters, digits, '-' and '_'. */
static int plain_name(const char *s) {
    if (!*s || strlen(s) >= 16) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

const char *cli_catalog_language(const char *lang, char *why, size_t size) {
    static char found[16];
    if (lang) {
        if (plain_name(lang) && language_exists(lang)) return lang;
        snprintf(why, size, "no catalog for language '%.40s' in %s (there are en, nl, de, it)",
                 lang, cli_catalog_dir());
        return NULL;
    }
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v) continue;
        snprintf(found, sizeof found, "%.2s", v);
        for (char *p = found; *p; p++) *p = (char)(*p | 0x20);
        if (strlen(found) == 2 && plain_name(found) && language_exists(found)) return found;
        break; /* the first one set decides, as setlocale would */
    }
    return "en";
}

static cJSON *read_file(const char *path, int *missing, char *why, size_t size) {
    FILE *f = fopen(path, "rb");
    *missing = !f;
    if (!f) return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *bigger = realloc(text, cap);
            if (!bigger) break;
            text = bigger;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
    }
    fclose(f);
    if (!text) {
        snprintf(why, size, "%s: out of memory", path);
        return NULL;
    }
    text[len] = 0;
    cJSON *root = cJSON_Parse(text);
    free(text);
    int ok = cJSON_IsObject(root);
    for (cJSON *e = ok ? root->child : NULL; ok && e; e = e->next) ok = cJSON_IsString(e);
    if (!ok) {
        snprintf(why, size, "%s: not a JSON object of texts", path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* One language's files: common, howto and the game's. */
static int load_language(cli_catalog *c, const char *lang, char *why, size_t size) {
    char names[MAX_FILES][256];
    int n = 0;
    snprintf(names[n++], sizeof names[0], "common.json");
    snprintf(names[n++], sizeof names[0], "howto.json");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", cli_catalog_dir(), lang);
    DIR *d = c->game[0] ? opendir(dir) : NULL;
    size_t glen = strlen(c->game);
    for (struct dirent *e; d && (e = readdir(d)) && n < MAX_FILES / 2;) {
        size_t len = strlen(e->d_name);
        if (len >= glen + 5 && strncmp(e->d_name, c->game, glen) == 0 &&
            (e->d_name[glen] == '.') && strcmp(e->d_name + len - 5, ".json") == 0 &&
            len < sizeof names[0])
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    if (d) closedir(d);
    for (int i = 0; i < n && c->nfiles < MAX_FILES; i++) {
        char path[4400];
        int missing;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        cJSON *file = read_file(path, &missing, why, size);
        if (!file && !missing) return 1;
        if (file) c->file[c->nfiles++] = file;
    }
    return 0;
}

cli_catalog *cli_catalog_load(const char *lang, const char *game, char *why, size_t size) {
    cli_catalog *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    snprintf(c->lang, sizeof c->lang, "%s", lang);
    snprintf(c->game, sizeof c->game, "%s", game ? game : "");
    if (load_language(c, lang, why, size) ||
        (strcmp(lang, "en") && load_language(c, "en", why, size))) {
        cli_catalog_free(c);
        return NULL;
    }
    return c;
}

void cli_catalog_free(cli_catalog *c) {
    if (!c) return;
    for (int i = 0; i < c->nfiles; i++) cJSON_Delete(c->file[i]);
    free(c);
}

const char *cli_catalog_language_of(const cli_catalog *c) { return c->lang; }

static const char *lookup(const cli_catalog *c, const char *key) {
    for (int i = 0; i < c->nfiles; i++) {
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(c->file[i], key);
        if (e) return e->valuestring;
    }
    return NULL;
}

const char *cli_catalog_get(const cli_catalog *c, const char *key) {
    const char *text = lookup(c, key);
    return text ? text : key;
}

int cli_catalog_has(const cli_catalog *c, const char *key) { return lookup(c, key) != NULL; }

const char *cli_catalog_seat(const cli_catalog *c, int seat) {
    char key[32];
    if (seat < 0) return cli_catalog_get(c, "common.chance");
    snprintf(key, sizeof key, "common.seat.%d", seat);
    const char *name = lookup(c, key);
    return name ? name : "common.seat.?"; /* not the key: it is local */
}

/* ---- filling templates ---- */

typedef struct text {
    char *p;
    size_t len, cap;
    int oom;
} text;

static void put(text *t, const char *s, size_t n) {
    if (t->oom) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p) {
            t->oom = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

static void puts_(text *t, const char *s) { put(t, s, strlen(s)); }

static void put_number(text *t, double v) {
    char digits[32];
    snprintf(digits, sizeof digits, "%g", v);
    puts_(t, digits);
}

/* What a template is filled from: the event, and inside a sub-phrase the
** number {n}. */
typedef struct fill {
    const cli_catalog *c;
    const cJSON *obj;
    int has_n;
    double n;
    int seat; /* {seat} inside a per-seat item; -2: none */
    int depth;
} fill;

static void expand(const fill *f, const char *tmpl, text *t);

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* key_zero (when n is 0 and the catalog has it: it may be empty, to leave a
** part worth nothing out), key_one or key_other by n, falling back to
** key_other, then key. */
static const char *plural(const cli_catalog *c, const char *key, double n) {
    char k[256];
    const char *found = NULL;
    if (n == 0) {
        snprintf(k, sizeof k, "%s_zero", key);
        found = lookup(c, k);
    }
    if (!found && n == 1) {
        snprintf(k, sizeof k, "%s_one", key);
        found = lookup(c, k);
    }
    if (!found) {
        snprintf(k, sizeof k, "%s_other", key);
        found = lookup(c, k);
    }
    return found ? found : lookup(c, key) ? lookup(c, key) : key;
}

static void phrase(const fill *f, const char *key, double n, int seat, text *t) {
    fill sub = *f;
    sub.has_n = 1;
    sub.n = n;
    sub.seat = seat;
    sub.depth++;
    if (sub.depth > MAX_DEPTH) {
        put_number(t, n);
        return;
    }
    expand(&sub, plural(f->c, key, n), t);
}

/* Items joined: "a, b and c" */
static void join(const fill *f, text *t, int i, int count) {
    if (i == 0) return;
    if (i == count - 1) {
        puts_(t, " ");
        puts_(t, cli_catalog_get(f->c, "common.and"));
        puts_(t, " ");
    } else {
        puts_(t, cli_catalog_get(f->c, "common.list_sep"));
    }
}

/* A symbol in words; with a form ({card@acc}), the form's own entry first
** (<game>.<field>.<value>@<form>: "den Spion"), for a language that says a
** name differently where it stands in a sentence. */
static void put_symbol(const fill *f, const char *field, const char *form, const char *value,
                       text *t) {
    char key[256];
    const char *word = NULL;
    if (form) {
        snprintf(key, sizeof key, "%s.%s.%s@%s", f->c->game, field, value, form);
        word = lookup(f->c, key);
    }
    snprintf(key, sizeof key, "%s.%s.%s", f->c->game, field, value);
    if (!word) word = lookup(f->c, key);
    if (!word && strcmp(value, "?") == 0) word = cli_catalog_get(f->c, "common.hidden");
    puts_(t, word ? word : value);
}

/* One number per seat: each seat that has one, as its item phrase. */
static void put_per_seat(const fill *f, const char *field, const cJSON *array, text *t) {
    int count = 0, i = 0;
    for (const cJSON *v = array->child; v; v = v->next) count += cJSON_IsNumber(v) && v->valuedouble != 0;
    char gained[160], lost[160]; /* a field's name is under 128 bytes (put_field) */
    snprintf(gained, sizeof gained, "common.per_seat.%s", field);
    snprintf(lost, sizeof lost, "common.per_seat.%s_lost", field);
    int seat = 0;
    for (const cJSON *v = array->child; v; v = v->next, seat++) {
        if (!cJSON_IsNumber(v) || v->valuedouble == 0) continue;
        join(f, t, i++, count);
        double n = v->valuedouble;
        char lost_other[192];
        snprintf(lost_other, sizeof lost_other, "%s_other", lost);
        char gained_other[192];
        snprintf(gained_other, sizeof gained_other, "%s_other", gained);
        if (n < 0 && cli_catalog_has(f->c, lost_other)) {
            phrase(f, lost, -n, seat, t);
        } else if (cli_catalog_has(f->c, gained_other)) {
            phrase(f, gained, n, seat, t);
        } else { /* a count that needs no words: the seat and the number */
            puts_(t, cli_catalog_seat(f->c, seat));
            puts_(t, " ");
            put_number(t, n);
        }
    }
    if (count == 0) { /* every seat at 0: a total's own words ("both at 0"), else "nobody" */
        char none[160];
        snprintf(none, sizeof none, "common.per_seat.%s_none", field);
        puts_(t, cli_catalog_get(f->c, cli_catalog_has(f->c, none) ? none : "common.nobody"));
    }
}

static void put_field(const fill *f, const char *name, const char *key, text *t) {
    char base[128];
    const char *form = strchr(name, '@');
    if (form && (size_t)(form - name) < sizeof base) { /* {field@form}: the field, said in a form */
        memcpy(base, name, (size_t)(form - name));
        base[form - name] = 0;
        name = base;
        form++;
    } else {
        form = NULL;
    }
    if (strcmp(name, "n") == 0 && f->has_n) {
        put_number(t, f->n);
        return;
    }
    if (strcmp(name, "seat") == 0 && f->seat != -2) {
        puts_(t, cli_catalog_seat(f->c, f->seat));
        return;
    }
    const cJSON *v = f->obj ? cJSON_GetObjectItemCaseSensitive(f->obj, name) : NULL;
    if (!v) { /* no such field: left visible, for the tests to find */
        puts_(t, "{");
        puts_(t, name);
        puts_(t, "}");
        return;
    }
    if (key) {
        double n = cJSON_IsNumber(v) ? v->valuedouble : cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
        phrase(f, key, n, -2, t);
    } else if ((strcmp(name, "seat") == 0 || ends_with(name, "_seat")) && cJSON_IsNumber(v)) {
        puts_(t, cli_catalog_seat(f->c, v->valueint));
    } else if ((strcmp(name, "seats") == 0 || ends_with(name, "_seats")) && cJSON_IsArray(v)) {
        int count = cJSON_GetArraySize(v), i = 0;
        for (const cJSON *s = v->child; s; s = s->next) {
            join(f, t, i++, count);
            puts_(t, cli_catalog_seat(f->c, s->valueint));
        }
        if (count == 0) puts_(t, cli_catalog_get(f->c, "common.nobody"));
    } else if ((strcmp(name, "points") == 0 || ends_with(name, "_by_seat")) && cJSON_IsArray(v)) {
        put_per_seat(f, name, v, t);
    } else if (cJSON_IsString(v)) {
        put_symbol(f, name, form, v->valuestring, t);
    } else if (cJSON_IsNumber(v)) {
        put_number(t, v->valuedouble);
    } else if (cJSON_IsBool(v)) {
        puts_(t, cli_catalog_get(f->c, cJSON_IsTrue(v) ? "common.yes" : "common.no"));
    } else if (cJSON_IsArray(v)) {
        int i = 0;
        for (const cJSON *s = v->child; s; s = s->next, i++) {
            if (i) puts_(t, cli_catalog_get(f->c, "common.list_sep"));
            if (cJSON_IsString(s)) put_symbol(f, name, form, s->valuestring, t);
            else if (cJSON_IsNumber(s)) put_number(t, s->valuedouble);
        }
    }
}

static void expand(const fill *f, const char *tmpl, text *t) {
    for (const char *p = tmpl; *p;) {
        const char *open = strchr(p, '{');
        if (!open) {
            puts_(t, p);
            return;
        }
        put(t, p, (size_t)(open - p));
        const char *close = strchr(open, '}');
        if (!close || close - open > 200) {
            puts_(t, open);
            return;
        }
        char name[128] = "", key[160] = "";
        const char *colon = memchr(open, ':', (size_t)(close - open));
        const char *name_end = colon ? colon : close;
        snprintf(name, sizeof name, "%.*s", (int)(name_end - open - 1), open + 1);
        if (colon) snprintf(key, sizeof key, "%.*s", (int)(close - colon - 1), colon + 1);
        put_field(f, name, colon ? key : NULL, t);
        p = close + 1;
    }
}

char *cli_catalog_format(const cli_catalog *c, const char *key, const cJSON *obj) {
    text t = {0};
    fill f = {c, obj, 0, 0, -2, 0};
    expand(&f, cli_catalog_get(c, key), &t);
    puts_(&t, "");
    if (t.oom) {
        free(t.p);
        return NULL;
    }
    return t.p;
}

char *cli_catalog_repeated(const cli_catalog *c, const char *key, const char *text,
                           int count) {
    cJSON *fields = cJSON_CreateObject();
    cJSON_AddStringToObject(fields, "move", text);
    cJSON_AddNumberToObject(fields, "count", count);
    char *said = cli_catalog_format(c, key, fields);
    cJSON_Delete(fields);
    return said;
}

char *cli_catalog_event(const cli_catalog *c, const cJSON *event) {
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
    char key[160];
    const char *k = cJSON_IsString(kind) ? kind->valuestring : "?";
    snprintf(key, sizeof key, "%s.event.%s", c->game, k);
    if (!cli_catalog_has(c, key)) snprintf(key, sizeof key, "common.event.%s", k);
    return cli_catalog_format(c, key, event);
}
