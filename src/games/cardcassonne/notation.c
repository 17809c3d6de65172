/*
** notation.c -- action text both ways (rules §6, docs/cardcassonne.md).
**
** "reveal GA", "row B", "deal 2 Y1", "play Y1 R", "follower G", "ten",
** "keep", "assign sheep".  Words are separated by blanks and read in any
** case.  A deal names its seat although the seat follows from the state: a
** record then reads as the table does, and a deal to the wrong seat is an
** error, not a silent reinterpretation.
*/
#include "cardcassonne.h"
#include "../../core/words.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The text; hidden: "?" for the card when the viewer may not see it. */
static int action_text(const cc_state *s, tafel_action a, int hidden, char *buf,
                       size_t n) {
    if (a >= CC_A_REVEAL && a < CC_A_DEAL)
        return snprintf(buf, n, "reveal %s", cc_cards[a - CC_A_REVEAL].name);
    if (a >= CC_A_DEAL && a < CC_A_PLAY)
        return snprintf(buf, n, "deal %d %s", s->deal_to,
                        hidden ? "?" : cc_cards[a - CC_A_DEAL].name);
    if (a >= CC_A_PLAY && a < CC_A_FOLLOWER) {
        int t = (a - CC_A_PLAY) / CC_COLOURS, r = (a - CC_A_PLAY) % CC_COLOURS;
        return snprintf(buf, n, "play %s %s", hidden ? "?" : cc_cards[t].name,
                        cc_row_names[r]);
    }
    if (a >= CC_A_FOLLOWER && a < CC_A_ROW)
        return snprintf(buf, n, "follower %s", cc_row_names[a - CC_A_FOLLOWER]);
    if (a >= CC_A_ROW && a < CC_A_TEN)
        return snprintf(buf, n, "row %s", cc_row_names[a - CC_A_ROW]);
    if (a == CC_A_TEN) return snprintf(buf, n, "ten");
    if (a == CC_A_KEEP) return snprintf(buf, n, "keep");
    if (a >= CC_A_ASSIGN && a < CC_ACTIONS)
        return snprintf(buf, n, "assign %s", cc_kind_names[a - CC_A_ASSIGN]);
    if (n) buf[0] = 0;
    return -1;
}

int cc_to_text(const void *data, tafel_action a, char *buf, size_t n) {
    return action_text(data, a, 0, buf, n);
}

/* What seat sees of a: deals to others and others' face-down plays hide
** the card. */
int cc_view_text(const void *data, int seat, tafel_action a, char *buf, size_t n) {
    const cc_state *s = data;
    int hidden = 0;
    if (a >= CC_A_DEAL && a < CC_A_PLAY) hidden = s->deal_to != seat;
    if (a >= CC_A_PLAY && a < CC_A_FOLLOWER)
        hidden = s->phase == CC_PH_PLAY && s->played[s->turn] == 0 && s->turn != seat;
    return action_text(s, a, hidden, buf, n);
}

#define MAX_WORDS 4

static int is_word(const tf_words *w, int i, const char *word) {
    return !strcasecmp(w->w[i], word);
}

static int bad(tafel_error *err, const char *text, const char *why) {
    return tf_error(err, TAFEL_EPARSE, "'%s': %s", TF_Q(text), why);
}

#define CARDS_HELP "a card is Y1..Y3, YA, YH (also R, G, B), DRAGON, FAIRY, AJ or HJ"
#define ROWS_HELP "a row is Y, R, G or B"

static int card_word(const tf_words *w, int i, const char *text, int *t, tafel_error *err) {
    for (*t = 0; *t < CC_TYPES; ++*t)
        if (is_word(w, i, cc_cards[*t].name)) return TAFEL_OK;
    return bad(err, text, CARDS_HELP);
}

static int row_word(const tf_words *w, int i, const char *text, int *r, tafel_error *err) {
    *r = tf_find_name(w->w[i], cc_row_names, CC_COLOURS);
    return *r < 0 ? bad(err, text, ROWS_HELP) : TAFEL_OK;
}

/* The action the words name, legal or not. */
static int parse(const cc_state *s, const char *text, const tf_words *w,
                 tafel_action *out, tafel_error *err) {
    int t, r;
    if (w->n == 0) return bad(err, text, "no action");
    if (is_word(w, 0, "reveal") && w->n == 2) {
        if (card_word(w, 1, text, &t, err)) return TAFEL_EPARSE;
        *out = CC_A_REVEAL + t;
    } else if (is_word(w, 0, "deal") && w->n == 3) {
        int seat;
        if (!tf_read_int(w->w[1], 0, s->players - 1, &seat))
            return tf_error(err, TAFEL_EPARSE, "'%s': the seat must be 0..%d", TF_Q(text),
                            s->players - 1);
        if (card_word(w, 2, text, &t, err)) return TAFEL_EPARSE;
        if (s->phase == CC_PH_DEAL && seat != s->deal_to)
            return tf_error(err, TAFEL_EILLEGAL,
                            "the next card is dealt to seat %d, not %d", s->deal_to,
                            seat);
        *out = CC_A_DEAL + t;
    } else if (is_word(w, 0, "play") && w->n == 3) {
        if (card_word(w, 1, text, &t, err) || row_word(w, 2, text, &r, err))
            return TAFEL_EPARSE;
        *out = CC_A_PLAY + t * CC_COLOURS + r;
    } else if (is_word(w, 0, "follower") && w->n == 2) {
        if (row_word(w, 1, text, &r, err)) return TAFEL_EPARSE;
        *out = CC_A_FOLLOWER + r;
    } else if (is_word(w, 0, "row") && w->n == 2) {
        if (row_word(w, 1, text, &r, err)) return TAFEL_EPARSE;
        *out = CC_A_ROW + r;
    } else if (is_word(w, 0, "ten") && w->n == 1) {
        *out = CC_A_TEN;
    } else if (is_word(w, 0, "keep") && w->n == 1) {
        *out = CC_A_KEEP;
    } else if (is_word(w, 0, "assign") && w->n == 2) {
        int k = tf_find_name(w->w[1], cc_kind_names, CC_KINDS);
        if (k < 0) return bad(err, text, "the kinds are chicken, pig, sheep and horse");
        *out = CC_A_ASSIGN + k;
    } else {
        return bad(err, text,
                   "actions are: reveal CARD, row ROW, deal SEAT CARD, play CARD ROW, "
                   "follower ROW, ten, keep, assign KIND");
    }
    return TAFEL_OK;
}

int cc_from_text(const void *data, const char *text, tafel_action *out,
                 tafel_error *err) {
    const cc_state *s = data;
    tf_words w;
    if (tf_split(text, &w) < 0 || w.n > MAX_WORDS) return bad(err, text, "too many words, or a word too long");
    int rc = parse(s, text, &w, out, err);
    if (rc) return rc;
    cc_state scratch = *s; /* legal exactly when apply accepts it */
    return cc_apply(&scratch, *out, err);
}
