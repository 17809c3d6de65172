/*
** account.c -- the account of an action (docs/events-cardcassonne.md): what
** it did, as one seat may see it, as events that the catalogs put in words.
**
** The action is played on a copy.  A deal, a play or a decision is told
** from the state before it; round scoring and the final scoring report each
** of their steps (scoring.c, with a cc_report), and the points of an event
** are the change of the seat's score categories since the last event told:
** an account's points are exactly the change of the scores.  A seat is told
** the cards it may see (view.c): the cards dealt to it and its own face-down
** cards; every card a follower secures, turned up at round scoring for all
** (a card that leaves the game then stays in the view as one its taker put
** out, so the same view afterwards still means the same account,
** docs/events.md); every card still face down in a row when the game ends.
** Any other card is "?".  The copy
** played with reports must end byte for byte as apply() leaves the state,
** and every point must have been told: describe checks both, so that an
** account cannot drift from the game.
*/
#include "cardcassonne.h"

#include <string.h>

struct cc_report {
    tf_events *ev;
    int bad; /* a step's points disagree with what the cards say */
    int16_t told[TAFEL_MAX_PLAYERS][CC_PTS_CATEGORIES]; /* points told so far */
    /* The cards about to be taken (CC_REPORT_TAKE), by type: persons of
    ** the row, wrongly placed persons, dragon and fairy, buildings and
    ** building jokers, and the animal jokers. */
    uint8_t persons[CC_TYPES], wrong[CC_TYPES], jewels[CC_TYPES], buildings[CC_TYPES];
    int jokers;
};

/* The string a seat is told for a card: the card, or "?" when hidden. */
static const char *card_name(int t, int hidden) { return hidden ? "?" : cc_cards[t].name; }

/* The cards counted by type, as an array of their names in type order. */
static void put_cards(tf_events *ev, const char *field, const uint8_t count[CC_TYPES]) {
    const char *names[CC_CARDS];
    int n = 0;
    for (int t = 0; t < CC_TYPES; t++)
        for (int i = 0; i < count[t] && n < CC_CARDS; i++) names[n++] = cc_cards[t].name;
    tf_event_strs(ev, field, names, n);
}

static int total(const uint8_t count[CC_TYPES]) {
    int n = 0;
    for (int t = 0; t < CC_TYPES; t++) n += count[t];
    return n;
}

/* The points of seat's category not told yet, now told. */
static int untold(cc_report *rep, const cc_state *s, int seat, int category) {
    int n = s->points[seat][category] - rep->told[seat][category];
    rep->told[seat][category] = s->points[seat][category];
    return n;
}

/* "gained": what the event brings seat; "points", one number a seat, only
** when that is not 0 (events.h: points mark the events that change a score). */
static void put_gain(tf_events *ev, int seat, int gained) {
    tf_event_int(ev, "gained", gained);
    if (!gained) return;
    int points[TAFEL_MAX_PLAYERS] = {0};
    points[seat] = gained;
    tf_event_points(ev, points);
}

/* An event on seat's cards in a row: "kind", seat, row. */
static void begin_row_event(tf_events *ev, const char *kind, int seat, int row) {
    tf_event_begin(ev, kind);
    tf_event_int(ev, "seat", seat);
    tf_event_str(ev, "row", cc_row_names[row]);
}

/* ---- round scoring, step by step ------------------------------------- */

/* Seat's stretch, turned up for all to see: what it secured, and which of
** those cards were placed face down in a row not their own. */
static void tell_secured(cc_report *rep, const cc_state *s, int seat) {
    uint8_t cards[CC_TYPES] = {0}, wrong[CC_TYPES] = {0};
    int row = s->score_row;
    for (int i = s->score_from; i < s->score_to; i++) {
        uint8_t e = s->row[row][i];
        int t = CC_ENTRY_TYPE(e);
        cards[t]++;
        wrong[t] = (uint8_t)(wrong[t] + (CC_ENTRY_WAS_DOWN(e) & cc_misplaced(t, row)));
    }
    int n = total(cards);
    begin_row_event(rep->ev, n ? "cards_secured" : "nothing_secured", seat, row);
    if (!n) return;
    put_cards(rep->ev, "cards", cards);
    tf_event_int(rep->ev, "count", n);
    if (!total(wrong)) return;
    begin_row_event(rep->ev, "wrongly_placed", seat, row);
    put_cards(rep->ev, "cards", wrong);
    tf_event_int(rep->ev, "count", total(wrong));
}

/* The cards left after the seat's choices, sorted by what becomes of them;
** animals are told when their kinds score (tell_animals). */
static void note_take(cc_report *rep, const cc_state *s) {
    int row = s->score_row;
    memset(rep->persons, 0, sizeof rep->persons);
    memset(rep->wrong, 0, sizeof rep->wrong);
    memset(rep->jewels, 0, sizeof rep->jewels);
    memset(rep->buildings, 0, sizeof rep->buildings);
    rep->jokers = 0;
    for (int i = s->score_from; i < s->score_to; i++) {
        uint8_t e = s->row[row][i];
        if (e == CC_GONE) continue; /* taken for ten points */
        int t = CC_ENTRY_TYPE(e), kind = cc_cards[t].kind;
        int misplaced = CC_ENTRY_WAS_DOWN(e) && cc_misplaced(t, row);
        if (kind == CC_PERSON) (misplaced ? rep->wrong : rep->persons)[t]++;
        else if (kind == CC_DRAGON || kind == CC_FAIRY) rep->jewels[t]++;
        else if (kind == CC_BUILDING || kind == CC_BUILDING_JOKER) rep->buildings[t]++;
        else if (kind == CC_ANIMAL_JOKER) rep->jokers++;
    }
}

/* Cards that leave the game for 10 points each, of a score category: the
** wrongly placed persons, the dragon and the fairy. */
static void tell_tens(cc_report *rep, const cc_state *s, int seat, const char *kind,
                      int category, const uint8_t count[CC_TYPES]) {
    int n = total(count), gained = untold(rep, s, seat, category);
    rep->bad |= gained != 10 * n;
    if (!n) return;
    begin_row_event(rep->ev, kind, seat, s->score_row);
    put_cards(rep->ev, "cards", count);
    tf_event_int(rep->ev, "count", n);
    put_gain(rep->ev, seat, gained);
}

/* The cards noted by note_take, taken: their points by category. */
static void tell_taken(cc_report *rep, const cc_state *s, int seat) {
    tf_events *ev = rep->ev;
    int row = s->score_row, persons = total(rep->persons), sum = 0;
    for (int t = 0; t < CC_TYPES; t++) sum += rep->persons[t] * cc_cards[t].value;
    int gained = untold(rep, s, seat, CC_PTS_PERSONS);
    rep->bad |= gained != sum * persons;
    if (persons) {
        begin_row_event(ev, "persons_scored", seat, row);
        put_cards(ev, "cards", rep->persons);
        tf_event_int(ev, "persons", persons);
        tf_event_int(ev, "sum", sum);
        put_gain(ev, seat, gained);
    }
    tell_tens(rep, s, seat, "wrong_persons_scored", CC_PTS_WRONG, rep->wrong);
    tell_tens(rep, s, seat, "dragon_fairy_scored", CC_PTS_DRAGON_FAIRY, rep->jewels);
    if (total(rep->buildings)) {
        tf_event_begin(ev, "buildings_to_chest");
        tf_event_int(ev, "seat", seat);
        put_cards(ev, "cards", rep->buildings);
        tf_event_int(ev, "count", total(rep->buildings));
        tf_event_int(ev, "chest", cc_chest_count(s, seat));
    }
    if (rep->jokers) {
        tf_event_begin(ev, "animal_jokers_won");
        tf_event_int(ev, "seat", seat);
        tf_event_int(ev, "count", rep->jokers);
    }
}

/* The seat to decide takes ten points for the wrongly placed animal or
** building it won (rules §3.3), or keeps it: told before it is played, and
** its points as told (describe checks, after, that they were so). */
static void tell_choice(cc_report *rep, const cc_state *s, int keep) {
    int seat = s->turn, t = CC_ENTRY_TYPE(s->row[s->score_row][s->score_pos]);
    begin_row_event(rep->ev, keep ? "wrong_card_kept" : "wrong_card_ten", seat, s->score_row);
    tf_event_str(rep->ev, "card", cc_cards[t].name);
    if (keep) return;
    rep->told[seat][CC_PTS_WRONG] = (int16_t)(rep->told[seat][CC_PTS_WRONG] + 10);
    put_gain(rep->ev, seat, 10);
}

/* Every animal kind that gained a card this round scores its whole
** collection, jokers assigned to it included. */
static void tell_animals(cc_report *rep, const cc_state *s, int seat) {
    int gained = untold(rep, s, seat, CC_PTS_ANIMALS), told = 0;
    for (int k = 0; k < CC_KINDS; k++) {
        if (!(s->touched >> k & 1)) continue;
        int n = s->animals[seat][k], value = cc_animal_points[n > 8 ? 8 : n];
        tf_event_begin(rep->ev, "animals_scored");
        tf_event_int(rep->ev, "seat", seat);
        tf_event_str(rep->ev, "animal", cc_kind_names[k]);
        tf_event_int(rep->ev, "count", n);
        tf_event_int(rep->ev, "jokers", s->jokers_as[seat][k]);
        put_gain(rep->ev, seat, value);
        told += value;
    }
    rep->bad |= told != gained;
}

/* The final scoring of seat's chest: the best sets of different colours. */
static void tell_buildings(cc_report *rep, const cc_state *s, int seat) {
    uint8_t colours[CC_COLOURS], sizes[CC_MAX_SETS], chest[CC_TYPES] = {0};
    for (int c = 0; c < CC_COLOURS; c++) {
        colours[c] = s->taken[seat][c * CC_PER_COLOUR + 4];
        chest[c * CC_PER_COLOUR + 4] = colours[c];
    }
    chest[CC_HJ_TYPE] = s->taken[seat][CC_HJ_TYPE];
    int gained = untold(rep, s, seat, CC_PTS_BUILDINGS);
    rep->bad |= gained != cc_building_sets(colours, chest[CC_HJ_TYPE], sizes);
    if (!total(chest)) return;
    static const char *const size_names[5] = {"0", "1", "2", "3", "4"};
    const char *sets[CC_MAX_SETS];
    int n = 0;
    while (n < CC_MAX_SETS && sizes[n]) n++;
    for (int i = 0; i < n; i++) sets[i] = size_names[sizes[i]];
    tf_event_begin(rep->ev, "buildings_scored");
    tf_event_int(rep->ev, "seat", seat);
    put_cards(rep->ev, "cards", chest);
    tf_event_int(rep->ev, "buildings", total(chest));
    tf_event_strs(rep->ev, "sets", sets, n);
    put_gain(rep->ev, seat, gained);
}

void cc_report_step(cc_report *rep, const cc_state *s, int step, int seat, int arg) {
    tf_events *ev = rep->ev;
    switch (step) {
    case CC_REPORT_SECURED: tell_secured(rep, s, seat); break;
    case CC_REPORT_TAKE: note_take(rep, s); break;
    case CC_REPORT_TAKEN: tell_taken(rep, s, seat); break;
    case CC_REPORT_JOKERS: {
        int gained = untold(rep, s, seat, CC_PTS_JOKERS);
        rep->bad |= gained != 3 * arg;
        if (!arg) break;
        tf_event_begin(ev, "animal_jokers_wait");
        tf_event_int(ev, "seat", seat);
        tf_event_int(ev, "count", arg);
        tf_event_int(ev, "held", s->unassigned[seat]);
        put_gain(ev, seat, gained);
        break;
    }
    case CC_REPORT_ANIMALS: tell_animals(rep, s, seat); break;
    case CC_REPORT_ROUND:
        tf_event_begin(ev, "round_over");
        tf_event_int(ev, "round", s->round + 1);
        tf_event_int(ev, "rounds", s->rounds);
        break;
    case CC_REPORT_BUILDINGS: tell_buildings(rep, s, seat); break;
    }
}

/* ---- the actions ------------------------------------------------------ */

/* A play or a follower.  When the turn ends the round's play, apply() goes
** on to round scoring, with no report: the next seat, its hand empty and
** its follower placed, is what tells it so.  The turn is played with a card
** counted in that hand, which nothing else in the turn reads, and scoring
** is started here with the report, as apply() would start it. */
static void play_turn(cc_state *s, tafel_action a, cc_report *rep) {
    int next = cc_next_seat(s, s->turn);
    int ends = s->hand_count[next] == 0 && s->follower_row[next] != CC_NONE;
    s->hand_count[next] = (uint8_t)(s->hand_count[next] + ends);
    cc_apply(s, a, NULL);
    s->hand_count[next] = (uint8_t)(s->hand_count[next] - ends);
    if (!ends) return;
    tf_event_begin(rep->ev, "scoring_started");
    tf_event_int(rep->ev, "round", s->round + 1);
    cc_start_scoring(s, rep);
}

/* The start of a round: its number and its dealer. */
static void tell_round(const cc_state *s, tf_events *ev) {
    tf_event_begin(ev, "round_started");
    tf_event_int(ev, "round", s->round + 1);
    tf_event_int(ev, "rounds", s->rounds);
    tf_event_int(ev, "seat", s->dealer);
    tf_event_int(ev, "hand_size", s->hand_size);
}

/* The end: the cards still face down in the rows are shown (they score
** nothing), then the winners, ties going to more building cards (rules §4). */
static void tell_game_over(const cc_state *s, tf_events *ev) {
    for (int r = 0; r < CC_COLOURS; r++)
        for (int i = 0; i < s->row_len[r]; i++) {
            uint8_t e = s->row[r][i];
            if (!CC_ENTRY_DOWN(e)) continue;
            begin_row_event(ev, "face_down_shown", CC_ENTRY_OWNER(e), r);
            tf_event_str(ev, "card", cc_cards[CC_ENTRY_TYPE(e)].name);
        }
    int won[TAFEL_MAX_PLAYERS], n = cc_winners(s, won), top = s->score[0], at_top = 0;
    int scores[TAFEL_MAX_PLAYERS], chests[TAFEL_MAX_PLAYERS];
    unsigned winners = 0;
    for (int p = 0; p < s->players; p++) {
        scores[p] = s->score[p];
        chests[p] = cc_chest_count(s, p);
        top = scores[p] > top ? scores[p] : top;
    }
    for (int p = 0; p < s->players; p++) at_top += scores[p] == top;
    for (int i = 0; i < n; i++) winners |= 1u << won[i];
    tf_event_begin(ev, "game_over");
    tf_event_seat_set(ev, "seats", winners);
    tf_event_int(ev, "winners", n);
    tf_event_ints(ev, "score_by_seat", scores, s->players);
    tf_event_ints(ev, "buildings_by_seat", chests, s->players);
    tf_event_str(ev, "decided_by", at_top == 1 ? "points" : n == 1 ? "buildings" : "shared");
}

/* What the action is, told before it is played. */
static void tell_action(const cc_state *s, tafel_action a, tf_events *ev) {
    int seat = ev->seat;
    if (a < CC_A_DEAL) { /* a setup card: into its row, or a joker for the dealer */
        int t = a - CC_A_REVEAL, colour = cc_cards[t].colour;
        tf_event_begin(ev, colour < 0 ? "setup_joker" : "setup_card");
        tf_event_str(ev, "card", cc_cards[t].name);
        if (colour < 0) tf_event_int(ev, "seat", s->dealer);
        else tf_event_str(ev, "row", cc_row_names[colour]);
    } else if (a < CC_A_PLAY) {
        tf_event_begin(ev, "card_dealt");
        tf_event_int(ev, "seat", s->deal_to);
        tf_event_str(ev, "card", card_name(a - CC_A_DEAL, seat != s->deal_to));
    } else if (a < CC_A_FOLLOWER) {
        int p = s->turn, t = (a - CC_A_PLAY) / CC_COLOURS, down = s->played[p] == 0;
        begin_row_event(ev, down ? "card_played_face_down" : "card_played", p,
                        (a - CC_A_PLAY) % CC_COLOURS);
        tf_event_str(ev, "card", card_name(t, down && seat != p));
    } else if (a < CC_A_ROW) {
        int row = a - CC_A_FOLLOWER;
        begin_row_event(ev, "follower_placed", s->turn, row);
        tf_event_int(ev, "count", s->row_len[row] - s->row_secured[row]);
    } else if (a < CC_A_TEN) {
        begin_row_event(ev, "setup_joker_placed", s->dealer, a - CC_A_ROW);
        tf_event_str(ev, "card", cc_cards[s->setup_joker].name);
    } else if (a >= CC_A_ASSIGN) {
        tf_event_begin(ev, "animal_joker_assigned");
        tf_event_int(ev, "seat", s->turn);
        tf_event_str(ev, "animal", cc_kind_names[a - CC_A_ASSIGN]);
    } /* ten and keep: tell_choice */
}

/* Play a in s, telling rep, into after. */
static void play(const cc_state *s, tafel_action a, cc_report *rep, cc_state *after) {
    tf_events *ev = rep->ev;
    rep->bad = 0;
    memcpy(rep->told, s->points, sizeof rep->told);
    memcpy(after, s, sizeof *after);
    tell_action(s, a, ev);
    if (s->phase == CC_PH_PLAY) {
        play_turn(after, a, rep);
    } else if (a == CC_A_TEN || a == CC_A_KEEP) {
        tell_choice(rep, s, a == CC_A_KEEP);
        cc_ten_or_keep(after, a == CC_A_KEEP, rep);
    } else if (a >= CC_A_ASSIGN) {
        cc_assign(after, a - CC_A_ASSIGN, rep);
    } else {
        cc_apply(after, a, NULL); /* setup and deals: no scoring */
    }
    if (after->phase == CC_PH_DEAL && s->phase != CC_PH_DEAL) tell_round(after, ev);
    if (after->phase == CC_PH_OVER && s->phase != CC_PH_OVER) tell_game_over(after, ev);
}

int cc_describe(const void *data, tafel_action a, tf_events *ev) {
    const cc_state *s = data;
    cc_state after, expected;
    cc_report rep;
    memset(&rep, 0, sizeof rep);
    rep.ev = ev;
    play(s, a, &rep, &after);
    memcpy(&expected, s, sizeof expected);
    if (cc_apply(&expected, a, NULL) != TAFEL_OK || memcmp(&expected, &after, sizeof after) ||
        memcmp(rep.told, after.points, sizeof rep.told) || rep.bad)
        return TAFEL_ESTATE;
    return TAFEL_OK;
}
