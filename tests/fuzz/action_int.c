/*
** action_int.c -- fuzz target: arbitrary integers as actions, and as seats.
**
** Input: a position header (fuzz.h), then 8-byte chunks: an action and a
** seat, each a little-endian int32 of any value (INT_MIN, negative, huge).
** tafel_state_is_legal must agree with the legal list and change nothing;
** tafel_state_apply must accept exactly the legal actions (and then pass
** tafel_state_check) and refuse the others with TAFEL_EILLEGAL, a message
** and the state unchanged.  tafel_action_to_text and
** tafel_action_view_text are snprintf-like for any action and buffer size
** (an exactly sized heap buffer, so that the sanitizer sees one byte too
** many); for a legal action the text fits TAFEL_ACTION_TEXT_MAX, and a seat
** out of range gives -1 and an empty buffer.  A legal action is then played,
** and the next chunk is tried there.  The position's legal list (and
** chance outcomes) read into short arrays are the start of the whole list
** with the whole count, and nothing is written past the end.
*/
#include "fuzz.h"

#define MAX_CHUNKS 64

static int32_t read_int(const uint8_t *p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* f(state, seat, action, buf, size) for to_text and view_text alike. */
typedef int (*text_fn)(const tafel_state *, int, tafel_action, char *, size_t);

static int to_text(const tafel_state *s, int seat, tafel_action a, char *buf, size_t size) {
    (void)seat;
    return tafel_action_to_text(s, a, buf, size);
}

/* The text at several buffer sizes: the same length each time, the buffer
** holding the text cut to fit.  Returns the length (-1: none). */
static int text_sizes(const tafel_state *s, text_fn f, const char *name, int seat,
                      tafel_action a, int legal) {
    char full[TAFEL_ACTION_TEXT_MAX];
    memset(full, 'x', sizeof full);
    int len = f(s, seat, a, full, sizeof full);
    if (legal && (len < 0 || len >= (int)sizeof full))
        fz_fail("%s(%d, seat %d) of a legal action returns %d", name, a, seat, len);
    if (len >= (int)sizeof full) return len; /* no action's text is this long: cut */
    if (len >= 0 && strlen(full) != (size_t)len)
        fz_fail("%s(%d, seat %d) returns %d for '%s'", name, a, seat, len, full);
    static const size_t sizes[] = {0, 1, 2, 5, 9};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t size = sizes[i];
        char *buf = malloc(size ? size : 1);
        if (!buf) fz_fail("out of memory");
        buf[0] = 'x';
        int n = f(s, seat, a, size ? buf : NULL, size);
        if (n != len) fz_fail("%s(%d, seat %d): %d with a %zu-byte buffer, %d with room",
                              name, a, seat, n, size, len);
        if (size && len >= 0 && strncmp(buf, full, size - 1))
            fz_fail("%s(%d, seat %d) with %zu bytes: '%s', not the start of '%s'", name, a,
                    seat, size, buf, full);
        if (size && len >= 0 && strlen(buf) != ((size_t)len < size ? (size_t)len : size - 1))
            fz_fail("%s(%d, seat %d) with %zu bytes: '%s' is not cut to fit", name, a, seat,
                    size, buf);
        free(buf);
    }
    return len;
}

/* The legal list (chance outcomes and their probabilities at a chance node)
** into short arrays: the same count, the first cap of the same actions, and
** not a byte written past cap (exactly sized heap arrays). */
static void short_lists(const fz_position *p, const tafel_state *s) {
    int n = fz_legal(p, s);
    int chance = tafel_state_current(s) == TAFEL_CHANCE;
    double *prob = malloc(sizeof *prob * (size_t)(n ? n : 1));
    if (!prob) fz_fail("out of memory");
    if (chance && tafel_state_chance_outcomes(s, p->list, prob, n) != n)
        fz_fail("chance outcomes: not the %d outcomes listed", n);
    int caps[] = {0, 1, 3, n / 2, n - 1};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        int cap = caps[i];
        if (cap < 0 || cap >= n) continue;
        tafel_action *out = malloc(sizeof *out * (size_t)(cap ? cap : 1));
        double *pr = malloc(sizeof *pr * (size_t)(cap ? cap : 1));
        if (!out || !pr) fz_fail("out of memory");
        out[0] = -7;
        int m = tafel_state_legal_actions(s, out, cap);
        if (m != n) fz_fail("legal actions with cap %d: %d, not %d", cap, m, n);
        if (cap == 0 && out[0] != -7) fz_fail("legal actions with cap 0 wrote an action");
        if (cap && memcmp(out, p->list, sizeof *out * (size_t)cap))
            fz_fail("legal actions with cap %d: not the first %d of the list", cap, cap);
        if (chance) {
            m = tafel_state_chance_outcomes(s, out, pr, cap);
            if (m != n || (cap && (memcmp(out, p->list, sizeof *out * (size_t)cap) ||
                                   memcmp(pr, prob, sizeof *pr * (size_t)cap))))
                fz_fail("chance outcomes with cap %d differ from the whole list", cap);
        }
        free(out);
        free(pr);
    }
    free(prob);
}

/* Returns 1 when a was legal (and s is now the state after it). */
static int try_action(const fz_position *p, tafel_state *s, tafel_action a, int seat) {
    int n = fz_legal(p, s);
    int in = fz_in_list(p->list, n, a);
    tafel_state *before = fz_clone(s);

    int legal = tafel_state_is_legal(s, a);
    if (!tafel_state_equal(s, before)) fz_fail("is_legal(%d) changed the state", a);
    if (legal != in)
        fz_fail("is_legal(%d) = %d, but the action is %sin the legal list", a, legal,
                in ? "" : "not ");
    tafel_error err = {0};
    tafel_state *c = fz_clone(s);
    int rc = tafel_state_apply(c, a, &err);
    if (in) {
        if (rc != TAFEL_OK) fz_fail("apply(%d) of a legal action: %s", a, err.message);
        fz_check(c, "after a legal action");
        if (tafel_state_move_number(c) != tafel_state_move_number(s) + 1)
            fz_fail("apply(%d): the move number did not advance", a);
    } else {
        if (rc != TAFEL_EILLEGAL || err.code != rc || !err.message[0])
            fz_fail("apply(%d) of an illegal action: status %d, error %d '%s'", a, rc,
                    err.code, err.message);
        if (!tafel_state_equal(c, s))
            fz_fail("apply(%d) refused the action (%s) but changed the state", a,
                    err.message);
    }
    tafel_state_free(c);

    text_sizes(s, to_text, "to_text", -1, a, in);
    int seat_ok = seat >= -1 && seat < p->players;
    int len = text_sizes(s, tafel_action_view_text, "view_text", seat, a, in && seat_ok);
    if (!seat_ok) {
        char buf[8] = "x";
        if (len != -1 || tafel_action_view_text(s, seat, a, buf, sizeof buf) != -1 || buf[0])
            fz_fail("view_text(%d) for seat %d out of range returns %d, '%s'", a, seat, len,
                    buf);
    }
    if (!tafel_state_equal(s, before)) fz_fail("to_text or view_text(%d) changed the state", a);
    tafel_state_free(before);

    if (!in) return 0;
    if (tafel_state_apply(s, a, &err)) fz_fail("apply(%d) of a legal action: %s", a, err.message);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_position p;
    fz_position_make(&data, &size, &p);
    static const int32_t edges[][2] = {{INT32_MIN, INT32_MIN}, {INT32_MAX, INT32_MAX},
                                       {-1, -1}, {0, -2}, {1, TAFEL_MAX_PLAYERS}};
    short_lists(&p, p.state);
    tafel_state *c = fz_clone(p.state); /* the edges may be legal: played on a copy */
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        try_action(&p, c, edges[i][0], edges[i][1]);
        tafel_state_copy(c, p.state);
    }
    tafel_state_free(c);
    for (int k = 0; k < MAX_CHUNKS && size >= 8; k++, data += 8, size -= 8)
        try_action(&p, p.state, read_int(data), read_int(data + 4));
    fz_position_free(&p);
    return 0;
}
