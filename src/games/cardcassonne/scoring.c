/*
** scoring.c -- round scoring (rules §3.3), the end of the game (§4), and the
** estimates bots use.
**
** Seats are scored one after another from the left of the round's dealer.
** A seat's secured cards are the entries between the previous follower (or
** the board) and its own follower.  Its decisions come first (ten or keep
** for each wrongly placed animal or building, in row order), then its cards
** are taken (persons scored and removed, animals laid out, buildings under
** the chest, dragon and fairy scored), then its animal jokers are assigned
** (or score 3 each when it holds no animal card), then every animal kind
** that gained a card this round scores the table value of its total.  A
** taken card's entry becomes CC_GONE; the rows are cut behind their last
** follower when every seat is done.
*/
#include "cardcassonne.h"

#include <string.h>

static void add_points(cc_state *s, int seat, int category, int n) {
    s->points[seat][category] = (int16_t)(s->points[seat][category] + n);
    s->score[seat] = (int16_t)(s->score[seat] + n);
}

static int scored_seat(const cc_state *s) {
    int seat = s->dealer + 1 + s->scoring;
    return seat >= s->players ? seat - s->players : seat; /* < 2 * players */
}

static int is_wrong(uint8_t entry, int row) {
    if (entry >= CC_GONE) return 0;
    const cc_card *c = &cc_cards[CC_ENTRY_TYPE(entry)];
    return CC_ENTRY_WAS_DOWN(entry) & (c->colour >= 0) & (c->colour != row);
}

static int needs_choice(uint8_t entry, int row) {
    if (!is_wrong(entry, row)) return 0;
    int kind = cc_cards[CC_ENTRY_TYPE(entry)].kind;
    return kind == CC_ANIMAL || kind == CC_BUILDING;
}

/* Find the seat's secured stretch of its row, turn up the face-down cards
** in it for all to see, and start on it. */
static void begin_seat(cc_state *s) {
    int p = scored_seat(s), row = s->follower_row[p], at = s->follower_at[p];
    uint8_t *r = s->row[row];
    int from = at, choices = 0;
    while (from > 0 && !CC_IS_FOLLOWER(r[from - 1])) {
        from--;
        if (CC_ENTRY_DOWN(r[from])) {
            r[from] = (uint8_t)(CC_ENTRY_TYPE(r[from]) | CC_TURNED);
            choices += needs_choice(r[from], row);
        }
    }
    s->score_row = (uint8_t)row;
    s->score_from = (uint8_t)from;
    s->score_pos = (uint8_t)(choices ? from : at); /* most stretches ask nothing */
    s->score_to = (uint8_t)at;
    s->touched = 0;
    s->new_jokers = 0;
}

static int holds_animal_card(const cc_state *s, int p) {
    for (int c = 0; c < CC_COLOURS; c++)
        if (s->taken[p][c * CC_PER_COLOUR + 3]) return 1;
    return 0;
}

/* Take the seat's secured cards, its choices made.  Random games take some
** 100 cards of unpredictable kinds, so the kinds become arithmetic rather
** than branches. */
static void take_cards(cc_state *s, int p) {
    uint8_t *r = s->row[s->score_row];
    int sum = 0, persons = 0, points = 0, wrong = 0, jokers = 0;
    uint8_t gained[CC_KINDS + 1] = {0};
    for (int i = s->score_from; i < s->score_to; i++) {
        uint8_t e = r[i];
        if (e == CC_GONE) continue;
        int t = CC_ENTRY_TYPE(e);
        const cc_card *c = &cc_cards[t];
        r[i] = CC_GONE;
        int bad = is_wrong(e, s->score_row); /* a person: the others were choices */
        int person = !bad && c->kind == CC_PERSON;
        int jewel = !bad && (c->kind == CC_DRAGON || c->kind == CC_FAIRY);
        int out = bad | person | jewel;
        s->removed[t] = (uint8_t)(s->removed[t] + out);
        s->taken[p][t] = (uint8_t)(s->taken[p][t] + !out);
        wrong += 10 * bad;
        sum += person * c->value;
        persons += person;
        points += 10 * jewel;
        jokers += c->kind == CC_ANIMAL_JOKER;
        gained[c->animal < 0 ? CC_KINDS : c->animal]++;
    }
    for (int k = 0; k < CC_KINDS; k++)
        if (gained[k]) {
            s->animals[p][k] = (uint8_t)(s->animals[p][k] + gained[k]);
            s->touched |= (uint8_t)(1u << k);
        }
    s->new_jokers = (uint8_t)(s->new_jokers + jokers);
    add_points(s, p, CC_PTS_PERSONS, sum * persons);
    add_points(s, p, CC_PTS_DRAGON_FAIRY, points);
    add_points(s, p, CC_PTS_WRONG, wrong);
}

static void score_animals(cc_state *s, int p) {
    for (int k = 0; k < CC_KINDS; k++) {
        if (!(s->touched >> k & 1)) continue;
        int n = s->animals[p][k] > 8 ? 8 : s->animals[p][k];
        add_points(s, p, CC_PTS_ANIMALS, cc_animal_points[n]);
    }
}

static void cut_rows(cc_state *s) {
    for (int row = 0; row < CC_COLOURS; row++) {
        int cut = s->row_secured[row], len = s->row_len[row];
        if (!cut) continue;
        memmove(s->row[row], s->row[row] + cut, (size_t)(len - cut));
        s->row_len[row] = (uint8_t)(len - cut);
        s->row_secured[row] = 0;
    }
}

static void finish_round(cc_state *s) {
    cut_rows(s);
    memset(s->follower_row, CC_NONE, sizeof s->follower_row); /* followers go home */
    s->scoring = 0;
    if (++s->round == s->rounds) {
        cc_final_scoring(s);
        return;
    }
    s->dealer = s->last_follower;
    cc_start_round(s);
}

void cc_start_scoring(cc_state *s) {
    s->scoring = 0;
    begin_seat(s);
    cc_continue_scoring(s);
}

/* Go on until a decision is needed or the round is over.  score_pos is
** CC_NONE once the seat's cards are taken (its jokers are next). */
void cc_continue_scoring(cc_state *s) {
    while (s->scoring < s->players) {
        int p = scored_seat(s);
        if (s->score_pos != CC_NONE) {
            for (; s->score_pos < s->score_to; s->score_pos++)
                if (needs_choice(s->row[s->score_row][s->score_pos], s->score_row)) {
                    s->phase = CC_PH_WRONG;
                    s->turn = (uint8_t)p;
                    return;
                }
            take_cards(s, p);
            s->score_pos = CC_NONE;
        }
        if (s->unassigned[p] + s->new_jokers > 0 && holds_animal_card(s, p)) {
            s->phase = CC_PH_ASSIGN;
            s->turn = (uint8_t)p;
            return;
        }
        add_points(s, p, CC_PTS_JOKERS, 3 * s->new_jokers);
        s->unassigned[p] = (uint8_t)(s->unassigned[p] + s->new_jokers);
        s->new_jokers = 0;
        score_animals(s, p);
        if (++s->scoring < s->players) begin_seat(s);
    }
    finish_round(s);
}

void cc_ten_or_keep(cc_state *s, int keep) {
    int p = s->turn;
    uint8_t *e = &s->row[s->score_row][s->score_pos];
    int t = CC_ENTRY_TYPE(*e);
    if (keep) {
        *e = (uint8_t)t; /* face up: from now on it is taken like any card */
    } else {
        add_points(s, p, CC_PTS_WRONG, 10);
        s->removed[t]++;
        *e = CC_GONE;
    }
    s->score_pos++;
    cc_continue_scoring(s);
}

void cc_assign(cc_state *s, int kind) {
    int p = s->turn;
    if (s->unassigned[p]) s->unassigned[p]--;
    else s->new_jokers--;
    s->jokers_as[p][kind]++;
    s->animals[p][kind]++;
    s->touched |= (uint8_t)(1u << kind);
    cc_continue_scoring(s);
}

static int chest_points(const cc_state *s, int p) {
    uint8_t colours[CC_COLOURS];
    for (int c = 0; c < CC_COLOURS; c++) colours[c] = s->taken[p][c * CC_PER_COLOUR + 4];
    return cc_building_points(colours, s->taken[p][CC_HJ_TYPE]);
}

void cc_final_scoring(cc_state *s) {
    for (int p = 0; p < s->players; p++)
        add_points(s, p, CC_PTS_BUILDINGS, chest_points(s, p));
    s->phase = CC_PH_OVER;
}

/* Most points; tied, most building cards; still tied, all of them. */
int cc_winners(const void *data, int *out) {
    const cc_state *s = data;
    int best = -1, n = 0;
    for (int p = 0; p < s->players; p++) {
        int key = s->score[p] * 256 + cc_chest_count(s, p);
        if (key > best) best = key, n = 0;
        if (key == best) out[n++] = p;
    }
    return n;
}

void cc_projected(const void *data, double *out) {
    const cc_state *s = data;
    for (int p = 0; p < s->players; p++)
        out[p] = s->score[p] + (s->phase == CC_PH_OVER ? 0 : chest_points(s, p));
}

static const char *const category_names[CC_PTS_CATEGORIES] = {
    "persons", "animals", "jokers", "dragon_fairy", "wrong", "buildings",
};

int cc_breakdown(const void *data, int seat, const char **names, double *values,
                 int cap) {
    const cc_state *s = data;
    for (int i = 0; i < CC_PTS_CATEGORIES && i < cap; i++) {
        names[i] = category_names[i];
        values[i] = s->points[seat][i];
    }
    return CC_PTS_CATEGORIES;
}

/* ---- the heuristic ---------------------------------------------------- */

/* What seat p would score for the cards row[from..to) if it took them now
** (an estimate: each wrongly placed animal or building at its better use). */
static double stretch_value(const cc_state *s, int p, int row, int from, int to) {
    int sum = 0, persons = 0, gain[CC_KINDS] = {0}, jokers = 0, buildings = 0;
    double v = 0;
    for (int i = from; i < to; i++) {
        uint8_t e = s->row[row][i];
        if (e == CC_GONE || CC_IS_FOLLOWER(e)) continue;
        const cc_card *c = &cc_cards[CC_ENTRY_TYPE(e)];
        if (is_wrong(e, row) && c->kind == CC_PERSON) {
            v += 10;
            continue;
        }
        switch (c->kind) {
        case CC_PERSON: sum += c->value, persons++; break;
        case CC_ANIMAL: gain[c->animal]++; break;
        case CC_BUILDING:
        case CC_BUILDING_JOKER: buildings++; break;
        case CC_DRAGON:
        case CC_FAIRY: v += 10; break;
        case CC_ANIMAL_JOKER: jokers++; break;
        }
    }
    v += sum * persons + 6.0 * buildings;
    int best = 0;
    for (int k = 0; k < CC_KINDS; k++)
        if (s->animals[p][k] + gain[k] > s->animals[p][best] + gain[best]) best = k;
    gain[best] += jokers;
    for (int k = 0; k < CC_KINDS; k++) {
        if (!gain[k]) continue;
        int n = s->animals[p][k] + gain[k];
        v += cc_animal_points[n > 8 ? 8 : n];
    }
    return v;
}

/* The secured stretch of p's follower, or the best open tail it could
** still take, and a little for every card still to play. */
static double round_value(const cc_state *s, int p) {
    if (s->phase != CC_PH_PLAY) return 0;
    int row = s->follower_row[p];
    if (row != CC_NONE) {
        const uint8_t *r = s->row[row];
        int at = s->follower_at[p], from = at;
        while (from > 0 && !CC_IS_FOLLOWER(r[from - 1])) from--;
        return stretch_value(s, p, row, from, at);
    }
    double best = 0;
    for (int r = 0; r < CC_COLOURS; r++) {
        int from = s->row_len[r];
        while (from > 0 && !CC_IS_FOLLOWER(s->row[r][from - 1])) from--;
        double v = stretch_value(s, p, r, from, s->row_len[r]);
        if (v > best) best = v;
    }
    return 0.6 * best;
}

void cc_heuristic(const void *data, double *out) {
    const cc_state *s = data;
    cc_projected(data, out);
    for (int p = 0; p < s->players; p++) out[p] += round_value(s, p);
}
