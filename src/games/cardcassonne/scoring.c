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
**
** rep, NULL in play, is the account of an action being told (account.c):
** at each step that takes cards or changes a score, scoring reports the
** state to it, and it does nothing else.  The loop of round scoring is
** compiled twice, with reports and without, so that play pays nothing for
** them.
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

/* A wrongly placed animal or building, which its winner tens or keeps.
** Arithmetic, no branches nor table (a taken entry has no type): the
** animals and buildings are the types colour * 5 + 3 and + 4 (cc_check
** verifies this). */
static int needs_choice(uint8_t entry, int row) {
    unsigned t = CC_ENTRY_TYPE(entry), colour = t / CC_PER_COLOUR;
    int animal_or_building = (t < CC_DRAGON_TYPE) & (t - colour * CC_PER_COLOUR >= 3);
    return CC_ENTRY_WAS_DOWN(entry) & animal_or_building & (colour != (unsigned)row);
}

/* Sixteen row entries, for marking stretches taken without a memset call,
** whose branches on the (random) length mispredict. */
typedef uint8_t cc_sixteen __attribute__((vector_size(16)));

static const cc_sixteen lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* Entries r[from..to) become CC_GONE, 16 at a time: a chunk may reach 15
** entries past to, into the row's slack, and writes those back unchanged.
** The first chunk is done even for no entries (from == to): whether a
** stretch is empty is random, and nearly all fit in one chunk, so the loop
** rarely mispredicts. */
static void mark_taken(uint8_t *r, int from, int to) {
    int i = from;
    do {
        cc_sixteen entries, inside = lane < (uint8_t)(to - i);
        memcpy(&entries, r + i, sizeof entries);
        entries = (entries & ~inside) | (CC_GONE & inside);
        memcpy(r + i, &entries, sizeof entries);
    } while ((i += 16) < to);
}

/* The face-down cards of r[from..to) are turned up, 16 at a time, as in
** mark_taken: which cards lie face down is random. */
static void turn_up(uint8_t *r, int from, int to) {
    int i = from;
    do {
        cc_sixteen entries, inside = lane < (uint8_t)(to - i);
        memcpy(&entries, r + i, sizeof entries);
        cc_sixteen down = inside & ((cc_sixteen)(entries - 32) < 5 << 5); /* CC_ENTRY_DOWN */
        entries = (entries & ~down) | (((entries & 31) | CC_TURNED) & down);
        memcpy(r + i, &entries, sizeof entries);
    } while ((i += 16) < to);
}

/* Start on the seat's secured stretch.  Its face-down cards are turned up
** for all to see; that matters only when the seat has choices to make
** (otherwise the stretch is taken at once, in the same call, and nobody sees
** the turned cards), but a branch on it mispredicts. */
static void begin_seat(cc_state *s) {
    int p = scored_seat(s), row = s->follower_row[p];
    int from = s->follower_from[p], at = s->follower_at[p];
    int choices = s->secured[p].choices;
    turn_up(s->row[row], from, at);
    s->score_row = (uint8_t)row;
    s->score_from = (uint8_t)from;
    s->score_pos = (uint8_t)(choices ? from : at); /* most stretches ask nothing */
    s->score_to = (uint8_t)at;
    s->touched = 0;
    s->new_jokers = 0;
}

static int holds_animal_card(const cc_state *s, int p) {
    int any = 0; /* no early exit: which animals a seat holds is random */
    for (int c = 0; c < CC_COLOURS; c++) any |= s->taken[p][c * CC_PER_COLOUR + 3];
    return any != 0;
}

/* The seed: the joker is assigned "zodra hij dierenkaarten wint", to join
** animals in front of the player, never to start a kind: only kinds of
** which p has an animal card (this round's, after ten or keep, included). */
int cc_holds_kind(const cc_state *s, int p, int kind) {
    for (int c = 0; c < CC_COLOURS; c++)
        if (cc_cards[c * CC_PER_COLOUR + 3].animal == kind)
            return s->taken[p][c * CC_PER_COLOUR + 3] > 0;
    return 0;
}

/* Take the seat's secured cards, its choices made: from the counts of its
** stretch, the entries themselves are only marked taken. */
static inline __attribute__((always_inline)) void take_cards(cc_state *s, int p) {
    cc_stretch *st = &s->secured[p];
    uint8_t count[CC_TYPES]; /* a copy the compiler knows no store changes */
    memcpy(count, st->count, sizeof count);
    mark_taken(s->row[s->score_row], s->score_from, s->score_to);
    for (int t = 0; t < CC_TYPES; t++) { /* a few vector operations */
        s->removed[t] = (uint8_t)(s->removed[t] + (count[t] & cc_leaves[t]));
        s->put_out[p][t] = (uint8_t)(s->put_out[p][t] + (count[t] & cc_leaves[t]));
        s->taken[p][t] = (uint8_t)(s->taken[p][t] + (count[t] & ~cc_leaves[t]));
    }
    int sum = -st->wrong_value, persons = -st->wrong_persons;
    for (int c = 0; c < CC_COLOURS; c++) {
        const uint8_t *n = count + c * CC_PER_COLOUR; /* persons 1, 2, 3, then the animal */
        sum += n[0] + 2 * n[1] + 3 * n[2];
        persons += n[0] + n[1] + n[2];
        int kind = cc_cards[c * CC_PER_COLOUR + 3].animal;
        s->animals[p][kind] = (uint8_t)(s->animals[p][kind] + n[3]);
        s->touched |= (uint8_t)((n[3] > 0) << kind);
    }
    s->new_jokers = (uint8_t)(s->new_jokers + count[CC_AJ_TYPE]);
    int jewels = 10 * (count[CC_DRAGON_TYPE] + count[CC_FAIRY_TYPE]), wrong = 10 * st->wrong_persons;
    int16_t *points = s->points[p]; /* add_points thrice, with one change of the score */
    points[CC_PTS_PERSONS] = (int16_t)(points[CC_PTS_PERSONS] + sum * persons);
    points[CC_PTS_DRAGON_FAIRY] = (int16_t)(points[CC_PTS_DRAGON_FAIRY] + jewels);
    points[CC_PTS_WRONG] = (int16_t)(points[CC_PTS_WRONG] + wrong);
    s->score[p] = (int16_t)(s->score[p] + sum * persons + jewels + wrong);
    memset(st, 0, sizeof *st);
}

static void score_animals(cc_state *s, int p) {
    int points = 0;
    for (int k = 0; k < CC_KINDS; k++) { /* which kinds were touched is random */
        int n = s->animals[p][k] > 8 ? 8 : s->animals[p][k];
        points += cc_animal_points[n] & -(s->touched >> k & 1);
    }
    add_points(s, p, CC_PTS_ANIMALS, points);
}

/* The entries behind each row's last follower move to its front, in
** 16-byte chunks: mostly one, cheaper than a memmove call.  A chunk reads
** and writes up to 16 bytes past the entries, into the row's slack (past
** row_len entries mean nothing).  The first chunk moves even when no
** entries are left behind, which is random, as in mark_taken. */
static void cut_rows(cc_state *s) {
    for (int p = 0; p < s->players; p++) { /* the last marks move with their entries */
        int row = s->last_row[p];
        if (row == CC_NONE) continue;
        if (s->last_at[p] < s->row_secured[row]) s->last_row[p] = CC_NONE; /* taken */
        else s->last_at[p] = (uint8_t)(s->last_at[p] - s->row_secured[row]);
    }
    for (int row = 0; row < CC_COLOURS; row++) {
        int cut = s->row_secured[row], left = s->row_len[row] - cut, i = 0;
        uint8_t *r = s->row[row];
        do /* forward: a chunk reads before it is written */
            memmove(r + i, r + cut + i, 16);
        while ((i += 16) < left);
        s->row_len[row] = (uint8_t)left;
        s->row_secured[row] = 0;
    }
}

static inline __attribute__((always_inline)) void finish_round(cc_state *s, cc_report *rep) {
    cut_rows(s);
    memset(s->follower_row, CC_NONE, sizeof s->follower_row); /* followers go home */
    s->scoring = 0;
    if (rep) cc_report_step(rep, s, CC_REPORT_ROUND, -1, 0);
    if (++s->round == s->rounds) {
        cc_final_scoring(s, rep);
        return;
    }
    s->dealer = s->last_follower;
    cc_start_round(s);
}

void cc_start_scoring(cc_state *s, cc_report *rep) {
    s->scoring = 0;
    begin_seat(s);
    if (rep) cc_report_step(rep, s, CC_REPORT_SECURED, scored_seat(s), 0);
    cc_continue_scoring(s, rep);
}

/* Go on until a decision is needed or the round is over.  score_pos is
** CC_NONE once the seat's cards are taken (its jokers are next).  Inlined
** in the two versions below: where rep is NULL, its tests go. */
static inline __attribute__((always_inline)) void continue_scoring(cc_state *s,
                                                                    cc_report *rep) {
    while (s->scoring < s->players) {
        int p = scored_seat(s);
        if (s->score_pos != CC_NONE) {
            if (s->secured[p].choices) { /* the next one is at score_pos or later */
                const uint8_t *r = s->row[s->score_row];
                int i = s->score_pos;
                while (i < s->score_to && !needs_choice(r[i], s->score_row)) i++;
                s->score_pos = (uint8_t)i;
                s->phase = CC_PH_WRONG;
                s->turn = (uint8_t)p;
                s->actor = (int8_t)p;
                return;
            }
            if (rep) cc_report_step(rep, s, CC_REPORT_TAKE, p, 0);
            take_cards(s, p);
            if (rep) cc_report_step(rep, s, CC_REPORT_TAKEN, p, 0);
            s->score_pos = CC_NONE;
        }
        if (s->unassigned[p] + s->new_jokers > 0 && holds_animal_card(s, p)) {
            s->phase = CC_PH_ASSIGN;
            s->turn = (uint8_t)p;
            s->actor = (int8_t)p;
            return;
        }
        add_points(s, p, CC_PTS_JOKERS, 3 * s->new_jokers);
        s->unassigned[p] = (uint8_t)(s->unassigned[p] + s->new_jokers);
        if (rep) cc_report_step(rep, s, CC_REPORT_JOKERS, p, s->new_jokers);
        s->new_jokers = 0;
        score_animals(s, p);
        if (rep) cc_report_step(rep, s, CC_REPORT_ANIMALS, p, 0);
        if (++s->scoring < s->players) {
            begin_seat(s);
            if (rep) cc_report_step(rep, s, CC_REPORT_SECURED, scored_seat(s), 0);
        }
    }
    finish_round(s, rep);
}

static __attribute__((noinline)) void continue_scoring_told(cc_state *s, cc_report *rep) {
    continue_scoring(s, rep);
}

void cc_continue_scoring(cc_state *s, cc_report *rep) {
    if (__builtin_expect(rep != NULL, 0)) continue_scoring_told(s, rep);
    else continue_scoring(s, NULL);
}

void cc_ten_or_keep(cc_state *s, int keep, cc_report *rep) {
    int p = s->turn;
    uint8_t *e = &s->row[s->score_row][s->score_pos];
    int t = CC_ENTRY_TYPE(*e);
    s->secured[p].choices--;
    if (keep) {
        *e = (uint8_t)t; /* face up: from now on it is taken like any card */
        s->secured[p].count[t]++;
    } else {
        add_points(s, p, CC_PTS_WRONG, 10);
        s->removed[t]++;
        s->put_out[p][t]++;
        *e = CC_GONE;
    }
    s->score_pos++;
    cc_continue_scoring(s, rep);
}

void cc_assign(cc_state *s, int kind, cc_report *rep) {
    int p = s->turn;
    if (s->unassigned[p]) s->unassigned[p]--;
    else s->new_jokers--;
    s->jokers_as[p][kind]++;
    s->animals[p][kind]++;
    s->touched |= (uint8_t)(1u << kind);
    cc_continue_scoring(s, rep);
}

static int chest_points(const cc_state *s, int p) {
    uint8_t colours[CC_COLOURS];
    for (int c = 0; c < CC_COLOURS; c++) colours[c] = s->taken[p][c * CC_PER_COLOUR + 4];
    return cc_building_points(colours, s->taken[p][CC_HJ_TYPE]);
}

void cc_final_scoring(cc_state *s, cc_report *rep) {
    for (int p = 0; p < s->players; p++) {
        add_points(s, p, CC_PTS_BUILDINGS, chest_points(s, p));
        if (rep) cc_report_step(rep, s, CC_REPORT_BUILDINGS, p, 0);
    }
    s->phase = CC_PH_OVER;
    s->actor = TAFEL_TERMINAL;
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
    int best = 0, any = 0;
    for (int k = 0; k < CC_KINDS; k++) {
        any |= s->animals[p][k] + gain[k];
        if (s->animals[p][k] + gain[k] > s->animals[p][best] + gain[best]) best = k;
    }
    if (!any) v += 3.0 * jokers; /* no kind to join: 3 points each */
    else gain[best] += jokers;
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
