/*
** notation.c -- action text both ways (docs/catan_cards.md).
**
** One line per action, verb first.  Columns are the rules' columns (the
** start settlements at 0 and 2), rows -2..2, stacks 1..5.  Some action
** numbers mean different things by frame (catan.h); the frame chooses the
** verb that is printed ("gain L" while gaining, "pay L" while paying), and
** the parser accepts each verb for the number it names.
*/
#include "catan.h"
#include "seats.h"
#include "../../core/words.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *res_verb(int frame) {
    switch (frame) {
    case F_GAIN: return "gain";
    case F_PAY_SEARCH: return "pay";
    case F_MERCHANT_GIVE: return "give";
    default: return "take";
    }
}

static const char *pass_verb(int frame) {
    switch (frame) {
    case F_MAIN: return "end";
    case F_OFFER: return "decline";
    case F_COUNTER: return "no-counter";
    case F_MASTER_SEARCH: return "pass";
    default: return "done";
    }
}

static const char *under_verb(int frame) {
    switch (frame) {
    case F_REFILL: return "exchange";
    case F_CONFLICT_PICK: return "under";
    case F_MASTER_PUT: return "put";
    default: return "discard";
    }
}

static int stack_of_deal(int dealt) {
    return dealt < 13 ? 0 : dealt < 26 ? 1 : dealt < 38 ? 2 : dealt < 50 ? 3 : 4;
}

static void arrangement(int perm, char *out, size_t n) {
    int left[6] = {0, 1, 2, 3, 4, 5};
    size_t used = 0;
    out[0] = 0;
    for (int pos = 0, k = 6; pos < 6; pos++, k--) {
        int f = 1;
        for (int i = 1; i < k; i++) f *= i;
        int i = perm / f;
        perm %= f;
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "%s%s", pos ? " " : "",
                                 ct_res_codes[left[i]]);
        memmove(left + i, left + i + 1, sizeof(int) * (size_t)(k - 1 - i));
    }
}

/* The text; hide: what the card names become ("?") for a seat that may not
** see them. */
static int text_of(const ct_state *s, tafel_action a, int hide, char *buf, size_t n) {
    int frame = ct_frame_kind(s);
    const char *card = NULL;
    if (a < 0 || a >= CT_ACTIONS) goto none;
    if (a < A_REGION_CARD)
        return snprintf(buf, n, "stack %d %s", stack_of_deal(s->dealt) + 1,
                        hide ? "?" : ct_cards[a - A_STACK_CARD].code);
    if (a < A_EVENT_CARD)
        return snprintf(buf, n, "%s %s", frame == F_SCOUT_PICK ? "choose" : "regions",
                        hide ? "?" : ct_region_cards[a - A_REGION_CARD].name);
    if (a < A_DIE) return snprintf(buf, n, "events %s", hide ? "?" : ct_event_codes[a - A_EVENT_CARD]);
    if (a < A_FACE) return snprintf(buf, n, "die %d", a - A_DIE + 1);
    if (a < A_DUEL) return snprintf(buf, n, "event-die %s", ct_face_codes[a - A_FACE]);
    if (a < A_ARRANGE) return snprintf(buf, n, "duel %d", a - A_DUEL + 1);
    if (a < A_SEARCH) {
        char order[32];
        arrangement(a - A_ARRANGE, order, sizeof order);
        return snprintf(buf, n, "arrange %s", order);
    }
    if (a < A_TAKE) return snprintf(buf, n, "search %d", a - A_SEARCH + 1);
    if (a < A_RES) return snprintf(buf, n, "take %s", hide ? "?" : ct_cards[a - A_TAKE].code);
    if (a < A_ROLL) return snprintf(buf, n, "%s %s", res_verb(frame), ct_res_codes[a - A_RES]);
    if (a == A_ROLL) return snprintf(buf, n, "roll");
    if (a < A_PASS) return snprintf(buf, n, "alchemist %d", a - A_ALCHEMIST + 1);
    if (a == A_PASS) return snprintf(buf, n, "%s", pass_verb(frame));
    if (a == A_ACCEPT) return snprintf(buf, n, "accept");
    if (a == A_BANK) return snprintf(buf, n, "bank");
    if (a == A_NEGOTIATE) return snprintf(buf, n, "negotiate");
    if (a < A_TRADE) return snprintf(buf, n, "play %s", ct_cards[a - A_PLAY].code);
    if (a < A_OFFER)
        return snprintf(buf, n, "%s %s %s", frame == F_CARAVAN ? "swap" : "trade",
                        ct_res_codes[(a - A_TRADE) / CT_RES], ct_res_codes[(a - A_TRADE) % CT_RES]);
    if (a < A_ROAD) {
        int code = a - A_OFFER, m = code % 3 + 1, k = code / 3 % 3 + 1, pair = code / 9;
        return snprintf(buf, n, "offer %d%s %d%s", k, ct_res_codes[pair / CT_RES], m,
                        ct_res_codes[pair % CT_RES]);
    }
    if (a < A_SETTLE) return snprintf(buf, n, "road %s", a - A_ROAD ? "right" : "left");
    if (a < A_CITY)
        return snprintf(buf, n, "settlement %s%s", (a - A_SETTLE) & 1 ? "right" : "left",
                        (a - A_SETTLE) >> 1 ? " scout" : "");
    if (a < A_BUILD) return snprintf(buf, n, "city %d", a - A_CITY - CT_COL0);
    if (a < A_DRAW) {
        int type = (a - A_BUILD) / CT_SITES, site = (a - A_BUILD) % CT_SITES;
        return snprintf(buf, n, "build %s %d %d", ct_cards[type].code,
                        site / CT_SITE_ROWS - CT_COL0, ct_site_row(site % CT_SITE_ROWS));
    }
    if (a < A_UNDER) return snprintf(buf, n, "draw %d", a - A_DRAW + 1);
    if (a < A_SITE) {
        card = hide ? "?" : ct_cards[(a - A_UNDER) / CT_STACKS].code;
        return snprintf(buf, n, "%s %s %d", under_verb(frame), card, (a - A_UNDER) % CT_STACKS + 1);
    }
    if (a < A_ABOVE) {
        int site = a - A_SITE;
        return snprintf(buf, n, "pick %d %d", site / CT_SITE_ROWS - CT_COL0,
                        ct_site_row(site % CT_SITE_ROWS));
    }
    return snprintf(buf, n, "above %s", ct_region_cards[a - A_ABOVE].name);
none:
    if (n) buf[0] = 0;
    return -1;
}

int ct_to_text(const void *data, tafel_action a, char *buf, size_t n) {
    return text_of(data, a, 0, buf, n);
}

/* Whether seat may see the card action a names (it is about to be played). */
static int seen_by(const ct_state *s, int seat, tafel_action a) {
    int frame = ct_frame_kind(s);
    if (a < A_DIE) return frame == F_SCOUT_PICK; /* shuffles: nobody sees */
    int actor = ct_current(s);
    if (actor == seat) return 1;
    /* an action of nobody's (at a chance node, at the end) is not about to
    ** be played: it shows no card (the fuzzer read frame[-1] and p[-1]) */
    if (actor < 0 || s->nframes == 0) return a < A_TAKE || a >= A_SITE;
    if (a >= A_TAKE && a < A_RES) {
        if (frame == F_SPY_TAKE) return seat == 1 - actor; /* from the seat's own hand */
        const ct_frame *f = &s->frame[s->nframes - 1];
        if (f->a >= CT_STACKS) return 0; /* no stack: an action not of this frame */
        int slot = ct_stack_find(s, f->a, a - A_TAKE);
        return seat >= 0 && slot >= 0 && (s->stack_known[f->a][slot] >> seat & 1);
    }
    if (a >= A_UNDER && a < A_SITE) {
        int owner = frame == F_CONFLICT_PICK ? 1 - actor : actor;
        if (owner == seat) return 1;
        int slot = ct_hand_find(s, owner, (a - A_UNDER) / CT_STACKS);
        return seat >= 0 && slot >= 0 && (s->p[owner].hand_known >> slot & 1);
    }
    return 1;
}

/* What a chance action decides, for the people at the table: the event
** card the event die's "event" face turns up (public from then on: it is
** turned face up), and whether an attack succeeds by the duel die (rules
** §2: 1-5 wins, 1-2 against a counter card).  "" when it says no more
** than its notation.  The record keeps the notation. */
static const char *chance_remark(const ct_state *s, tafel_action a, char *out, size_t n) {
    int frame = ct_frame_kind(s);
    out[0] = 0;
    if (frame == F_EVENT_DIE && a == A_FACE + CT_DIE_EVENT)
        snprintf(out, n, " (%s)", ct_event_codes[s->events[0]]);
    if (frame == F_DUEL && a >= A_DUEL && a < A_ARRANGE && s->nframes >= 2 &&
        s->frame[s->nframes - 2].kind == F_DUEL_RESULT) {
        int roll = a - A_DUEL + 1, countered = s->frame[s->nframes - 2].b;
        snprintf(out, n, " (the attack %s)", roll <= (countered ? 2 : 5) ? "succeeds" : "fails");
    }
    return out;
}

int ct_view_text(const void *data, int seat, tafel_action a, char *buf, size_t n) {
    char text[TAFEL_ACTION_TEXT_MAX], remark[40];
    if (text_of(data, a, !seen_by(data, seat, a), text, sizeof text) < 0) {
        if (n) buf[0] = 0;
        return -1;
    }
    return snprintf(buf, n, "%s%s", text, chance_remark(data, a, remark, sizeof remark));
}

/* ---- parsing ----------------------------------------------------------------- */

static int is(const char *word, const char *name) { return !strcasecmp(word, name); }

static int find_card(const char *word) {
    for (int t = 0; t < CT_CARD_TYPES; t++)
        if (is(word, ct_cards[t].code)) return t;
    return -1;
}

static int find_res(const char *word) {
    for (int r = 0; r < CT_RES; r++)
        if (is(word, ct_res_codes[r]) || is(word, ct_res_names[r])) return r;
    return -1;
}

static int find_region(const char *word) {
    for (int r = 0; r < CT_REGION_CARDS; r++)
        if (is(word, ct_region_cards[r].name)) return r;
    return -1;
}

static int site_of(const tf_words *w, int i, int *site) {
    int col, row;
    if (!tf_read_int(w->w[i], -CT_COL0, CT_COL0, &col) || !tf_read_int(w->w[i + 1], -2, 2, &row) || !row)
        return 0;
    int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
    *site = (col + CT_COL0) * CT_SITE_ROWS + ri;
    return 1;
}

/* The start region cards of seat, by name, in the order of the places #1
** to #6 that "arrange G O W L B Au" fills (fields1 mountains2 ... for seat
** 0): the example the prompt gives. */
void ct_start_regions_example(int seat, char *out, size_t n) {
    static const int kinds[6] = {CT_FIELDS, CT_MOUNTAINS, CT_PASTURE, CT_FOREST, CT_HILLS,
                                 CT_GOLDFIELD};
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < 6; i++)
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "%s%s", i ? " " : "",
                                 ct_region_cards[CT_STACK_REGIONS + 6 * seat + kinds[i]].name);
}

/* A start region named by its resource ("L", "lumber"), its kind
** ("forest") or its card ("forest4", seat's own): its kind, else -1 with
** *why saying what is wrong.  seat -1: either seat's cards. */
static int start_region(const char *word, int seat, char *why, size_t n) {
    int r = find_res(word);
    if (r >= 0) return r;
    for (int k = 0; k < CT_RES; k++)
        if (is(word, ct_region_names[k])) return k;
    int card = find_region(word);
    if (card >= CT_STACK_REGIONS) {
        int owner = (card - CT_STACK_REGIONS) / 6;
        if (seat < 0 || owner == seat) return ct_region_cards[card].kind;
        char mine[96];
        ct_start_regions_example(seat, mine, sizeof mine);
        snprintf(why, n, "%s is %s's start region; %s's are %s", ct_region_cards[card].name,
                 tf_seat_names[owner], tf_seat_names[seat], mine);
    } else if (card >= 0) {
        snprintf(why, n, "%s is a region of the stack, not a start region",
                 ct_region_cards[card].name);
    } else {
        snprintf(why, n, "'%s' is no region: name them by resource (L W B O G Au), kind "
                 "(forest pasture hills mountains fields gold) or card (forest4 ...)",
                 TF_Q(word));
    }
    return -1;
}

/* "arrange" and the six start regions for the places #1 to #6 (row -1,
** then row +1, each from the left): the permutation's number, as
** arrange() in game.c reads it.  0 with *why when the words are no
** arrangement. */
static int arrangement_of(const ct_state *s, const tf_words *w, int *perm, char *why,
                          size_t n) {
    static const char how[] = "e.g. arrange G O W L B Au (by resource, region kind or your "
                              "start region cards)";
    if (w->n != 7) return snprintf(why, n, "name the six start regions in order, %s", how), 0;
    int seat = ct_frame_kind(s) == F_ARRANGE ? s->frame[s->nframes - 1].seat : -1;
    int left[6] = {0, 1, 2, 3, 4, 5}, k = 6, named[6] = {0};
    *perm = 0;
    for (int pos = 0; pos < 6; pos++, k--) {
        int r = start_region(w->w[pos + 1], seat, why, n), i = 0;
        if (r < 0) return 0;
        if (named[r]++)
            return snprintf(why, n, "name each of the six once (%s twice), %s",
                            ct_res_codes[r], how), 0;
        while (left[i] != r) i++;
        int f = 1;
        for (int j = 1; j < k; j++) f *= j;
        *perm += i * f;
        memmove(left + i, left + i + 1, sizeof(int) * (size_t)(k - 1 - i));
    }
    return 1;
}

static int parse(const ct_state *s, const tf_words *w, tafel_action *out) {
    const char *v = w->w[0];
    int x, y, t;
    (void)s;
    if (w->n == 1) {
        if (is(v, "roll")) return *out = A_ROLL, 1;
        if (is(v, "accept")) return *out = A_ACCEPT, 1;
        if (is(v, "bank")) return *out = A_BANK, 1;
        if (is(v, "negotiate")) return *out = A_NEGOTIATE, 1;
        if (is(v, "end") || is(v, "done") || is(v, "pass") || is(v, "decline") ||
            is(v, "no-counter"))
            return *out = A_PASS, 1;
        return 0;
    }
    if (w->n == 2) {
        const char *a = w->w[1];
        if ((is(v, "gain") || is(v, "take") || is(v, "pay") || is(v, "give")) && (x = find_res(a)) >= 0)
            return *out = A_RES + x, 1;
        if (is(v, "take") && (t = find_card(a)) >= 0) return *out = A_TAKE + t, 1;
        if (is(v, "play") && (t = find_card(a)) >= 0) return *out = A_PLAY + t, 1;
        if (is(v, "search") && tf_read_int(a, 1, CT_STACKS, &x)) return *out = A_SEARCH + x - 1, 1;
        if (is(v, "draw") && tf_read_int(a, 1, CT_STACKS, &x)) return *out = A_DRAW + x - 1, 1;
        if (is(v, "die") && tf_read_int(a, 1, 6, &x)) return *out = A_DIE + x - 1, 1;
        if (is(v, "duel") && tf_read_int(a, 1, 6, &x)) return *out = A_DUEL + x - 1, 1;
        if (is(v, "alchemist") && tf_read_int(a, 1, 6, &x)) return *out = A_ALCHEMIST + x - 1, 1;
        if (is(v, "event-die"))
            for (int f = 0; f < CT_EVENT_FACES; f++)
                if (is(a, ct_face_codes[f])) return *out = A_FACE + f, 1;
        if (is(v, "events"))
            for (int e = 0; e < CT_EVENT_TYPES; e++)
                if (is(a, ct_event_codes[e])) return *out = A_EVENT_CARD + e, 1;
        if ((is(v, "regions") || is(v, "choose")) && (x = find_region(a)) >= 0 &&
            x < CT_STACK_REGIONS)
            return *out = A_REGION_CARD + x, 1;
        if (is(v, "above") && (x = find_region(a)) >= 0) return *out = A_ABOVE + x, 1;
        if (is(v, "road") && (is(a, "left") || is(a, "right"))) return *out = A_ROAD + is(a, "right"), 1;
        if (is(v, "settlement") && (is(a, "left") || is(a, "right")))
            return *out = A_SETTLE + is(a, "right"), 1;
        if (is(v, "city") && tf_read_int(a, -CT_COL0, CT_COL0, &x)) return *out = A_CITY + x + CT_COL0, 1;
        return 0;
    }
    if (w->n == 3) {
        const char *a = w->w[1], *b = w->w[2];
        if (is(v, "stack") && tf_read_int(a, 1, CT_STACKS, &x) && (t = find_card(b)) >= 0)
            return *out = A_STACK_CARD + t, 1;
        if ((is(v, "trade") || is(v, "swap")) && (x = find_res(a)) >= 0 && (y = find_res(b)) >= 0)
            return *out = A_TRADE + x * CT_RES + y, 1;
        if (is(v, "settlement") && (is(a, "left") || is(a, "right")) && is(b, "scout"))
            return *out = A_SETTLE + is(a, "right") + 2, 1;
        if ((is(v, "exchange") || is(v, "discard") || is(v, "under") || is(v, "put")) &&
            (t = find_card(a)) >= 0 && tf_read_int(b, 1, CT_STACKS, &x))
            return *out = A_UNDER + t * CT_STACKS + x - 1, 1;
        if (is(v, "pick") && site_of(w, 1, &x)) return *out = A_SITE + x, 1;
        if (is(v, "offer")) {
            int n, m;
            const char *give, *get;
            if (!tf_read_count(a, 1, 3, &n, &give) || !tf_read_count(b, 1, 3, &m, &get))
                return 0;
            x = find_res(give);
            y = find_res(get);
            if (x < 0 || y < 0 || x == y) return 0;
            return *out = A_OFFER + ((x * CT_RES + y) * 3 + n - 1) * 3 + m - 1, 1;
        }
        return 0;
    }
    if (w->n == 4 && is(v, "build") && (t = find_card(w->w[1])) >= 0 && site_of(w, 2, &x))
        return *out = A_BUILD + t * CT_SITES + x, 1;
    return 0;
}

int ct_from_text(const void *data, const char *text, tafel_action *out, tafel_error *err) {
    const ct_state *s = data;
    tf_words w;
    int words = tf_split(text, &w);
    if (words > 0 && is(w.w[0], "arrange")) {
        char why[200];
        int perm;
        if (!arrangement_of(s, &w, &perm, why, sizeof why))
            return tf_error(err, TAFEL_EPARSE, "'%s': not an action: %s", TF_Q(text), why);
        *out = A_ARRANGE + perm;
    } else if (words <= 0 || !parse(s, &w, out)) {
        return tf_error(err, TAFEL_EPARSE,
                        "'%s': not an action (see docs/catan_cards.md: e.g. roll, trade O G, "
                        "build abbey 0 -1, draw 3, end)",
                        TF_Q(text));
    }
    ct_state scratch = *s; /* legal exactly when apply accepts it */
    return ct_apply(&scratch, *out, err);
}
