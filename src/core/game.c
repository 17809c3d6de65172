/*
** game.c -- loading a game from its game string.
**
** Grammar: name [ "(" key "=" value { "," key "=" value } ")" ], spaces
** allowed around tokens.  Each value is checked against the module's
** parameter table; the module then checks combinations.  The canonical
** string lists players and every parameter that differs from its default,
** in table order, so equal games have equal strings.
*/
#include "module.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tafel_game {
    int module;
    tf_options options;
    char string[256];
};

static const char *skip_space(const char *p) {
    while (isspace((unsigned char)*p)) p++;
    return p;
}

/* Copy a token of [A-Za-z0-9_-] into out; returns the end, or NULL when
** the token does not fit (cut, "first=000...01" would read as 0). */
static const char *read_token(const char *p, char *out, size_t size) {
    size_t n = 0;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-') {
        if (n + 1 >= size) return NULL;
        out[n++] = *p++;
    }
    out[n] = 0;
    return p;
}

static int too_long(const char *text, tafel_error *err) {
    return tf_error(err, TAFEL_EPARAM, "a name or value in '%s' is too long (at most 63 "
                    "characters)", TF_Q(text));
}

static int enum_index(const char *choices, const char *value) {
    int index = 0;
    size_t len = strlen(value);
    const char *p = choices;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, value, n) == 0) return index;
        index++;
        if (!bar) break;
        p = bar + 1;
    }
    return -1;
}

/* The i-th choice of "a|b|c" into out. */
static void enum_name(const char *choices, int i, char *out, size_t size) {
    const char *p = choices;
    while (i-- > 0 && p) {
        p = strchr(p, '|');
        if (p) p++;
    }
    if (!p) p = "?";
    size_t n = strcspn(p, "|");
    if (n >= size) n = size - 1;
    memcpy(out, p, n);
    out[n] = 0;
}

static int parse_value(const tf_param *pm, const char *value, int *out,
                       tafel_error *err) {
    if (pm->kind == TF_PARAM_BOOL) {
        if (!strcmp(value, "true") || !strcmp(value, "1")) *out = 1;
        else if (!strcmp(value, "false") || !strcmp(value, "0")) *out = 0;
        else
            return tf_error(err, TAFEL_EPARAM, "%s must be true or false, not '%s'",
                            pm->name, value);
        return TAFEL_OK;
    }
    if (pm->kind == TF_PARAM_ENUM) {
        int i = enum_index(pm->choices, value);
        if (i < 0)
            return tf_error(err, TAFEL_EPARAM, "%s must be %s, not '%s'", pm->name,
                            pm->choices, value);
        *out = i;
        return TAFEL_OK;
    }
    char *end;
    long v = strtol(value, &end, 10);
    if (!*value || *end || v < pm->min || v > pm->max)
        return tf_error(err, TAFEL_EPARAM, "%s must be %d..%d", pm->name, pm->min,
                        pm->max);
    *out = (int)v;
    return TAFEL_OK;
}

static void format_value(const tf_param *pm, int v, char *out, size_t size) {
    if (pm->kind == TF_PARAM_BOOL) snprintf(out, size, "%s", v ? "true" : "false");
    else if (pm->kind == TF_PARAM_ENUM) enum_name(pm->choices, v, out, size);
    else snprintf(out, size, "%d", v);
}

static void describe_params(const tf_module *m, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < m->nparams && used < size; i++) {
        const tf_param *pm = &m->params[i];
        char def[32], range[64];
        format_value(pm, pm->def, def, sizeof def);
        if (pm->kind == TF_PARAM_INT) snprintf(range, sizeof range, "%d..%d", pm->min, pm->max);
        else if (pm->kind == TF_PARAM_BOOL) snprintf(range, sizeof range, "true|false");
        else snprintf(range, sizeof range, "%s", pm->choices);
        int n = snprintf(out + used, size - used, "%s=%s (default %s)  %s\n", pm->name,
                         range, def, pm->help);
        if (n < 0) break;
        used += (size_t)n;
    }
}

static void canonical_string(const tf_module *m, const tf_options *opt, char *out,
                             size_t size) {
    size_t used = (size_t)snprintf(out, size, "%s(", m->name);
    for (int i = 0; i < m->nparams && used < size; i++) {
        const tf_param *pm = &m->params[i];
        if (i > 0 && opt->value[i] == pm->def) continue;
        char v[32];
        format_value(pm, opt->value[i], v, sizeof v);
        used += (size_t)snprintf(out + used, size - used, "%s%s=%s", i ? "," : "",
                                 pm->name, v);
    }
    if (used < size) snprintf(out + used, size - used, ")");
}

TAFEL_API int tafel_game_load(const char *text, tafel_game **out, tafel_error *err) {
    if (out) *out = NULL;
    if (!text || !out) return tf_error(err, TAFEL_EINVAL, "no game string");
    char name[64];
    const char *p = read_token(skip_space(text), name, sizeof name);
    if (!p) return too_long(text, err);
    int index = tf_registry_find(name);
    if (index < 0) {
        char known[256] = "";
        for (int i = 0; i < tf_registry_count(); i++) {
            if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
            strncat(known, tf_registry_get(i)->name, sizeof known - strlen(known) - 1);
        }
        return tf_error(err, TAFEL_EGAME, "unknown game '%s' (games: %s)", name, known);
    }
    const tf_module *m = tf_registry_get(index);
    tf_options opt;
    int given[TF_MAX_PARAMS] = {0};
    for (int i = 0; i < m->nparams; i++) opt.value[i] = m->params[i].def;

    p = skip_space(p);
    if (*p == '(') {
        p = skip_space(p + 1);
        while (*p != ')') {
            char key[64], value[64];
            if (!(p = read_token(p, key, sizeof key))) return too_long(text, err);
            p = skip_space(p);
            if (!key[0] || *p != '=')
                return tf_error(err, TAFEL_EPARAM,
                                "expected key=value in the parameters of %s, at '%s'",
                                m->name, TF_Q(p));
            if (!(p = read_token(skip_space(p + 1), value, sizeof value)))
                return too_long(text, err);
            p = skip_space(p);
            int k = -1;
            for (int i = 0; i < m->nparams; i++)
                if (!strcmp(m->params[i].name, key)) k = i;
            if (k < 0) {
                char names[256] = "";
                for (int i = 0; i < m->nparams; i++) {
                    if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
                    strncat(names, m->params[i].name, sizeof names - strlen(names) - 1);
                }
                return tf_error(err, TAFEL_EPARAM, "%s has no parameter '%s' (it has: %s)",
                                m->name, key, names);
            }
            if (given[k])
                return tf_error(err, TAFEL_EPARAM, "parameter '%s' given twice", key);
            given[k] = 1;
            int rc = parse_value(&m->params[k], value, &opt.value[k], err);
            if (rc) return rc;
            if (*p == ',') {
                p = skip_space(p + 1);
                if (*p == ')')
                    return tf_error(err, TAFEL_EPARAM, "a parameter must follow ',' in '%s'",
                                    TF_Q(text));
            } else if (*p != ')')
                return tf_error(err, TAFEL_EPARAM, "expected ',' or ')' at '%s' in '%s'",
                                TF_Q(p), TF_Q(text));
        }
        p = skip_space(p + 1);
    }
    if (*p)
        return tf_error(err, TAFEL_EPARAM, "unexpected '%s' after the game string", TF_Q(p));
    if (m->validate) {
        int rc = m->validate(&opt, err);
        if (rc) return rc;
    }
    tafel_game *g = calloc(1, sizeof *g);
    if (!g) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    g->module = index;
    g->options = opt;
    canonical_string(m, &opt, g->string, sizeof g->string);
    *out = g;
    return TAFEL_OK;
}

TAFEL_API void tafel_game_free(tafel_game *g) { free(g); }

TAFEL_API const char *tafel_game_name(const tafel_game *g) {
    return tf_registry_get(g->module)->name;
}

TAFEL_API const char *tafel_game_string(const tafel_game *g) { return g->string; }

TAFEL_API int tafel_game_players(const tafel_game *g) { return g->options.value[0]; }

TAFEL_API size_t tafel_game_state_size(const tafel_game *g) {
    size_t n = sizeof(tf_state_header) + tf_registry_get(g->module)->data_size;
    return (n + 7) & ~(size_t)7;
}

TAFEL_API int tafel_game_num_distinct_actions(const tafel_game *g) {
    const tf_module *m = tf_registry_get(g->module);
    return m->distinct_actions ? m->distinct_actions : m->max_actions;
}

TAFEL_API int tafel_game_max_actions(const tafel_game *g) {
    return tf_registry_get(g->module)->max_actions;
}

TAFEL_API char *tafel_game_pieces_json(const tafel_game *g) {
    const tf_module *m = tf_registry_get(g->module);
    tf_buf b;
    tf_buf_init(&b);
    if (!m->pieces_json) tf_buf_add(&b, "{}");
    else if (m->pieces_json(&b) != TAFEL_OK) {
        tf_buf_free(&b);
        return NULL;
    }
    return tf_buf_take(&b);
}

TAFEL_API int tafel_game_hidden_information(const tafel_game *g) {
    return tf_registry_get(g->module)->view_text != NULL;
}

TAFEL_API const char *tafel_game_info(int i, const char **summary, char *params_help,
                                      size_t size) {
    const tf_module *m = tf_registry_get(i);
    if (!m) return NULL;
    if (summary) *summary = m->summary;
    if (params_help && size) describe_params(m, params_help, size);
    return m->name;
}

/* For state.c: the module and options of a game. */
int tf_game_module(const tafel_game *g, const tf_options **opt) {
    if (opt) *opt = &g->options;
    return g->module;
}
