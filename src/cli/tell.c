/*
** tell.c -- actions told in words at the terminal (see tell.h).
*/
#include "tell.h"
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_teller_init(cli_teller *t, cli_catalog *catalog, int seat, int notation) {
    memset(t, 0, sizeof *t);
    t->catalog = catalog;
    t->seat = seat;
    t->notation = notation;
}

void cli_teller_free(cli_teller *t) {
    free(t->run);
    free(t->last);
    memset(t, 0, sizeof *t);
}

static void run_add(cli_teller *t, const char *s) {
    size_t n = strlen(s);
    if (t->run_len + n + 1 > t->run_cap) {
        size_t cap = t->run_cap ? t->run_cap * 2 : 512;
        while (cap < t->run_len + n + 1) cap *= 2;
        char *p = realloc(t->run, cap);
        if (!p) return;
        t->run = p;
        t->run_cap = cap;
    }
    memcpy(t->run + t->run_len, s, n + 1);
    t->run_len += n;
}

/* The sentence that repeated, with its count, into the paragraph. */
static void fold(cli_teller *t) {
    if (!t->repeats) return;
    if (t->run_len) run_add(t, " ");
    if (t->repeats == 1) {
        run_add(t, t->last);
    } else {
        char *repeated = cli_catalog_repeated(t->catalog, "common.play.chance_repeated",
                                              t->last, t->repeats);
        if (repeated) run_add(t, repeated);
        free(repeated);
    }
    t->repeats = 0;
}

/* The paragraph, broken at blanks into lines of at most 78 columns
** (counting UTF-8 characters). */
/* Text broken at blanks into lines of at most 78 columns (counting UTF-8
** characters); the first line begins with prefix, the others are indented
** as far.  Only on a terminal: to a file or a pipe, one line per event is
** easier to search. */
static void print_wrapped(const char *prefix, const char *p) {
    if (!isatty(STDOUT_FILENO)) {
        printf("%s%s\n", prefix, p);
        return;
    }
    int indent = (int)strlen(prefix), width = 78 - indent;
    if (width < 20) width = 20;
    printf("%s", prefix);
    for (int line = 0; *p; line++) {
        const char *q = p, *cut = NULL;
        int columns = 0;
        while (*q && columns < width) {
            if (*q == ' ') cut = q;
            if (((unsigned char)*q & 0xC0) != 0x80) columns++;
            q++;
        }
        if (!*q) { /* the rest fits */
            cut = q;
        } else if (!cut) { /* one word longer than a line */
            cut = q;
            while (*cut && *cut != ' ') cut++;
        }
        printf("%*s%.*s\n", line ? indent : 0, "", (int)(cut - p), p);
        p = *cut ? cut + 1 : cut;
    }
}

void cli_tell_flush(cli_teller *t) {
    fold(t);
    if (t->run_len) print_wrapped("", t->run);
    t->run_len = 0;
    if (t->run) t->run[0] = 0;
}

static void chance_sentence(cli_teller *t, const char *sentence) {
    if (t->repeats && strcmp(sentence, t->last) == 0) {
        t->repeats++;
        return;
    }
    fold(t);
    free(t->last);
    t->last = strdup(sentence);
    t->repeats = t->last != NULL;
}

cJSON *cli_account(const tafel_state *state, tafel_action a, int seat, const char *who) {
    char *json = NULL;
    tafel_error err;
    if (tafel_state_describe(state, a, seat, &json, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.message);
        return NULL;
    }
    cJSON *events = cJSON_Parse(json);
    free(json);
    return events;
}

char *cli_account_words(cli_catalog *catalog, const tafel_state *state, tafel_action a,
                        int seat) {
    cJSON *events = cli_account(state, a, seat, "tafel");
    char *line = strdup("");
    size_t len = 0;
    for (const cJSON *e = events ? events->child : NULL; line && e; e = e->next) {
        char *sentence = cli_catalog_event(catalog, e);
        char *longer = sentence ? realloc(line, len + strlen(sentence) + 2) : NULL;
        if (longer) {
            line = longer;
            len += (size_t)sprintf(line + len, "%s%s", len ? " " : "", sentence);
        }
        free(sentence);
    }
    cJSON_Delete(events);
    return line;
}

int cli_tell(cli_teller *t, const tafel_state *state, tafel_action a, const char *prefix) {
    cJSON *events = cli_account(state, a, t->seat, "tafel");
    if (!events) return 1;
    int chance = tafel_state_current(state) == TAFEL_CHANCE;
    if (!chance) cli_tell_flush(t);
    char text[TAFEL_ACTION_TEXT_MAX] = "";
    if (t->notation) tafel_action_view_text(state, t->seat, a, text, sizeof text);
    int first = 1;
    for (const cJSON *e = events->child; e; e = e->next) {
        char *sentence = cli_catalog_event(t->catalog, e);
        if (!sentence) continue;
        if (chance) {
            if (t->notation && first) {
                char *noted = malloc(strlen(text) + strlen(sentence) + 4);
                if (noted) sprintf(noted, "[%s] %s", cli_printable(text), sentence);
                chance_sentence(t, noted ? noted : sentence);
                free(noted);
            } else {
                chance_sentence(t, sentence);
            }
        } else {
            char lead[TAFEL_ACTION_TEXT_MAX + 48];
            if (!first) snprintf(lead, sizeof lead, "%*s", (int)strlen(prefix), "");
            else if (t->notation) snprintf(lead, sizeof lead, "%s[%s] ", prefix, cli_printable(text));
            else snprintf(lead, sizeof lead, "%s", prefix);
            print_wrapped(lead, sentence);
        }
        first = 0;
        free(sentence);
    }
    if (first && t->notation && !chance) printf("%s[%s]\n", prefix, cli_printable(text));
    cJSON_Delete(events);
    return 0;
}
