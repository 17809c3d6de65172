/*
** action_text.c -- fuzz target: action texts against random positions.
**
** Input: a position header (fuzz.h), then lines of text, each read with
** tafel_action_from_text against the position reached so far.  A text
** refused must come with a message and leave the state as it was (also
** through tafel_state_apply_text).  A text accepted names a legal action:
** it is in the legal list, tafel_state_is_legal says so, its canonical text
** reads back to the same action (action -> text -> action, so legitimate
** normalising of case, blanks or rotations is no finding), every seat's
** view text fits, applying it passes tafel_state_check and gives the state
** apply_text gives.  Then it is played, and the next line is read there.
**
** Numbers: an accepted text holds no number beyond 32 bits, and each number
** of its canonical text made 2^32 or 2^64 larger is refused.  A number that
** does not fit cannot be what the player meant; read modulo 2^32 it would
** become another action ("offer 4294967297W 1L" read as "offer 1W 1L").
*/
#include "fuzz.h"


#define MAX_LINES 8

/* 1 when text holds a run of digits whose value (signed by a '-' just
** before it) does not fit in 32 bits. */
static int has_huge_number(const char *text) {
    for (const char *p = text; *p;) {
        if (*p < '0' || *p > '9') {
            p++;
            continue;
        }
        int negative = p > text && p[-1] == '-';
        unsigned long long v = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            if (v <= 1ull << 32) v = v * 10 + (unsigned)(*p - '0');
        if (v > (negative ? 1ull << 31 : (1ull << 31) - 1)) return 1;
    }
    return 0;
}

/* Each number of the canonical text made 2^32 or 2^64 larger, in turn: the
** same number read modulo 2^32 or saturated would be another action, so
** every such text must be refused. */
static void widened_numbers_refused(const tafel_state *s, const char *line,
                                    const char *text) {
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || (p > text && p[-1] >= '0' && p[-1] <= '9')) continue;
        size_t digits = strspn(p, "0123456789");
        if (digits > 5) continue; /* no canonical text has such numbers */
        unsigned long long v = strtoull(p, NULL, 10);
        for (int wide = 0; wide < 2; wide++) {
            char number[32], variant[TAFEL_ACTION_TEXT_MAX + 32];
            if (wide == 0) snprintf(number, sizeof number, "%llu", v + (1ull << 32));
            else /* 2^64 = 18446744073709551616: v fits in its last 7 digits */
                snprintf(number, sizeof number, "1844674407370%07llu", 9551616 + v);
            snprintf(variant, sizeof variant, "%.*s%s%s", (int)(p - text), text, number,
                     p + digits);
            tafel_action b;
            if (tafel_action_from_text(s, variant, &b, NULL) == TAFEL_OK)
                fz_fail("'%s' -> '%s': '%s' is read as action %d", line, text, variant, b);
        }
        p += digits - 1;
    }
}

static void refused(const tafel_state *s, const char *line, int rc, const tafel_error *err) {
    if (rc != TAFEL_EPARSE && rc != TAFEL_EILLEGAL)
        fz_fail("from_text('%s'): status %d, not EPARSE or EILLEGAL", line, rc);
    if (!err->message[0]) fz_fail("from_text('%s') refused without a message", line);
    tafel_state *c = fz_clone(s);
    tafel_error again = {0};
    int rc2 = tafel_state_apply_text(c, line, &again);
    if (rc2 != rc) fz_fail("'%s': from_text says %d, apply_text %d", line, rc, rc2);
    if (!tafel_state_equal(c, s))
        fz_fail("apply_text('%s') refused it but changed the state", line);
    tafel_state_free(c);
}

/* Every check of an accepted text; returns the state after it (owned). */
static tafel_state *accepted(const fz_position *p, const tafel_state *s, const char *line,
                             tafel_action a) {
    int n = fz_legal(p, s);
    if (!fz_in_list(p->list, n, a))
        fz_fail("from_text('%s') gave action %d, which is not in the legal list", line, a);
    if (!tafel_state_is_legal(s, a))
        fz_fail("from_text('%s') gave action %d, which is_legal refuses", line, a);

    char text[TAFEL_ACTION_TEXT_MAX], again[TAFEL_ACTION_TEXT_MAX];
    int len = tafel_action_to_text(s, a, text, sizeof text);
    if (len < 0 || len >= (int)sizeof text || strlen(text) != (size_t)len)
        fz_fail("'%s' -> %d -> to_text returns %d ('%s')", line, a, len, text);
    tafel_action b = -1;
    tafel_error err = {0};
    if (tafel_action_from_text(s, text, &b, &err) != TAFEL_OK)
        fz_fail("'%s' -> %d -> '%s', which does not read back: %s", line, a, text,
                err.message);
    if (b != a) fz_fail("'%s' -> %d -> '%s' -> %d: not the same action", line, a, text, b);
    if (tafel_action_to_text(s, b, again, sizeof again) != len || strcmp(again, text))
        fz_fail("'%s' -> %d: canonical text '%s', then '%s'", line, a, text, again);
    if (has_huge_number(line))
        fz_fail("'%s' holds a number beyond 32 bits, but reads as %d '%s'", line, a, text);
    widened_numbers_refused(s, line, text);

    for (int seat = -1; seat < p->players; seat++) {
        char view[TAFEL_ACTION_TEXT_MAX];
        int v = tafel_action_view_text(s, seat, a, view, sizeof view);
        if (v < 0 || v >= (int)sizeof view || strlen(view) != (size_t)v)
            fz_fail("'%s': view text for seat %d returns %d ('%s')", line, seat, v, view);
    }

    tafel_state *c = fz_clone(s), *d = fz_clone(s);
    int rc = tafel_state_apply(c, a, &err);
    if (rc != TAFEL_OK)
        fz_fail("'%s' -> %d: read as legal, but apply refuses it: %s", line, a, err.message);
    if (tafel_state_move_number(c) != tafel_state_move_number(s) + 1)
        fz_fail("'%s': the move number did not advance", line);
    fz_check(c, line);
    if (tafel_state_apply_text(d, line, &err) != TAFEL_OK || !tafel_state_equal(c, d))
        fz_fail("'%s': apply_text does not give the state from_text + apply give", line);
    tafel_state_free(d);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_position p;
    fz_position_make(&data, &size, &p);
    char *text = malloc(size + 1);
    if (!text) fz_fail("out of memory");
    memcpy(text, data, size);
    text[size] = 0;

    tafel_state *s = p.state, *before = fz_clone(s);
    char *line = text;
    for (int k = 0; k < MAX_LINES && line; k++) {
        char *next = strchr(line, '\n');
        if (next) *next++ = 0;
        tafel_action a = INT32_MIN;
        tafel_error err = {0};
        int rc = tafel_action_from_text(s, line, &a, &err);
        if (!tafel_state_equal(s, before)) fz_fail("from_text('%s') changed the state", line);
        if (rc != TAFEL_OK) {
            refused(s, line, rc, &err);
        } else {
            tafel_state *after = accepted(&p, s, line, a);
            tafel_state_copy(s, after);
            tafel_state_copy(before, after);
            tafel_state_free(after);
        }
        line = next;
    }
    tafel_state_free(before);
    free(text);
    fz_position_free(&p);
    return 0;
}
