/*
** view.c -- what one seat sees (JSON and a terminal picture), resampling of
** what it cannot see, and the invariants of a state.
**
** Hidden from a seat: the other hands, the other seats' face-down cards in
** the rows, and the order of the pile (which the state does not hold).
** Every card a follower secures is turned over at round scoring for all to
** see, so what lies in front of a seat and under its chest is public for
** good (rules §3.3).  The view is built from the state alone, and
** everything hidden from the seat is left out, so two states that differ
** only there give the seat the same bytes.  Resampling deals exactly those
** cards anew.
*/
#include "cardcassonne.h"
#include "seats.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {
    [CC_PH_REVEAL] = "reveal", [CC_PH_ROW] = "row",       [CC_PH_DEAL] = "deal",
    [CC_PH_PLAY] = "play",     [CC_PH_WRONG] = "wrong",   [CC_PH_ASSIGN] = "assign",
    [CC_PH_OVER] = "over",
};

static void json_kinds(tf_buf *b, const char *key, const uint8_t *n) {
    tf_buf_addf(b, ",\"%s\":{", key);
    for (int k = 0; k < CC_KINDS; k++)
        tf_buf_addf(b, "%s\"%s\":%d", k ? "," : "", cc_kind_names[k], n[k]);
    tf_buf_add(b, "}");
}

/* over: the game has ended, nothing is hidden any more */
static void json_entry(tf_buf *b, uint8_t e, int seat, int over) {
    if (CC_IS_FOLLOWER(e)) tf_buf_addf(b, "{\"follower\":%d}", e - CC_FOLLOWER);
    else if (e == CC_GONE) tf_buf_add(b, "{\"taken\":true}");
    else if (CC_ENTRY_DOWN(e) && (CC_ENTRY_OWNER(e) == seat || over))
        tf_buf_addf(b, "{\"down\":%d,\"card\":\"%s\"}", CC_ENTRY_OWNER(e),
                    cc_cards[CC_ENTRY_TYPE(e)].name);
    else if (CC_ENTRY_DOWN(e)) tf_buf_addf(b, "{\"down\":%d}", CC_ENTRY_OWNER(e));
    else
        tf_buf_addf(b, "{\"card\":\"%s\"%s}", cc_cards[CC_ENTRY_TYPE(e)].name,
                    CC_ENTRY_WAS_DOWN(e) ? ",\"turned\":true" : "");
}

static void json_seat(tf_buf *b, const cc_state *s, int p, int seat) {
    static const char *const points[CC_PTS_CATEGORIES] = {
        "persons", "animals", "jokers", "dragon_fairy", "wrong", "buildings"};
    tf_buf_addf(b, "%s{\"score\":%d,\"hand_count\":%d", p ? "," : "", s->score[p],
                s->hand_count[p]);
    if (p == seat) {
        tf_buf_add(b, ",\"hand\":[");
        int first = 1;
        for (int t = 0; t < CC_TYPES; t++)
            for (int i = 0; i < s->hand[p][t]; i++, first = 0)
                tf_buf_addf(b, "%s\"%s\"", first ? "" : ",", cc_cards[t].name);
        tf_buf_add(b, "]");
    }
    if (s->last_row[p] == CC_NONE) tf_buf_add(b, ",\"last\":null");
    else tf_buf_addf(b, ",\"last\":{\"row\":\"%s\",\"index\":%d}", cc_row_names[s->last_row[p]],
                     s->last_at[p]);
    tf_buf_addf(b, ",\"played\":%d,\"follower\":", s->played[p]);
    if (s->follower_row[p] == CC_NONE) tf_buf_add(b, "null");
    else tf_buf_addf(b, "\"%s\"", cc_row_names[s->follower_row[p]]);
    json_kinds(b, "animals", s->animals[p]);
    json_kinds(b, "animal_jokers", s->jokers_as[p]);
    tf_buf_addf(b, ",\"unassigned_jokers\":%d,\"chest_count\":%d", s->unassigned[p],
                cc_chest_count(s, p));
    tf_buf_add(b, ",\"chest\":{");
    for (int c = 0; c < CC_COLOURS; c++)
        tf_buf_addf(b, "\"%s\":%d,", cc_row_names[c], s->taken[p][c * CC_PER_COLOUR + 4]);
    tf_buf_addf(b, "\"HJ\":%d}", s->taken[p][CC_HJ_TYPE]);
    tf_buf_add(b, ",\"put_out\":{");
    for (int t = 0, first = 1; t < CC_TYPES; t++)
        if (s->put_out[p][t])
            tf_buf_addf(b, "%s\"%s\":%d", first ? "" : ",", cc_cards[t].name, s->put_out[p][t]),
                first = 0;
    tf_buf_add(b, "}");
    tf_buf_add(b, ",\"points\":{");
    for (int i = 0; i < CC_PTS_CATEGORIES; i++)
        tf_buf_addf(b, "%s\"%s\":%d", i ? "," : "", points[i], s->points[p][i]);
    tf_buf_add(b, "}}");
}

static void json_decision(tf_buf *b, const cc_state *s) {
    if (s->phase == CC_PH_ROW)
        tf_buf_addf(b, "{\"seat\":%d,\"kind\":\"row\",\"card\":\"%s\"}", s->dealer,
                    cc_cards[s->setup_joker].name);
    else if (s->phase == CC_PH_WRONG)
        tf_buf_addf(b, "{\"seat\":%d,\"kind\":\"ten_or_keep\",\"card\":\"%s\",\"row\":\"%s\"}",
                    s->turn, cc_cards[CC_ENTRY_TYPE(s->row[s->score_row][s->score_pos])].name,
                    cc_row_names[s->score_row]);
    else if (s->phase == CC_PH_ASSIGN)
        tf_buf_addf(b, "{\"seat\":%d,\"kind\":\"assign\",\"new_jokers\":%d}", s->turn,
                    s->new_jokers);
    else
        tf_buf_add(b, "null");
}

int cc_view_json(const void *data, int seat, tf_buf *b) {
    const cc_state *s = data;
    int next = cc_current(s);
    tf_buf_addf(b, "{\"game\":\"cardcassonne(players=%d", s->players);
    if (s->first_dealer) tf_buf_addf(b, ",dealer=%d", s->first_dealer);
    tf_buf_addf(b, ")\",\"seat\":%d,\"players\":%d,", seat, s->players);
    if (next >= 0) tf_buf_addf(b, "\"next\":%d", next);
    else tf_buf_addf(b, "\"next\":\"%s\"", next == TAFEL_CHANCE ? "chance" : "terminal");
    int round = s->round < s->rounds ? s->round + 1 : s->rounds;
    tf_buf_addf(b, ",\"phase\":\"%s\",\"round\":%d,\"rounds\":%d,\"hand_size\":%d,"
                "\"dealer\":%d,\"pile\":%d,\"setup_joker\":",
                phase_names[s->phase], round, s->rounds, s->hand_size, s->dealer,
                s->pile_total);
    if (s->phase == CC_PH_ROW) tf_buf_addf(b, "\"%s\"", cc_cards[s->setup_joker].name);
    else tf_buf_add(b, "null");
    tf_buf_add(b, ",\"decision\":");
    json_decision(b, s);
    tf_buf_add(b, ",\"rows\":{");
    for (int r = 0; r < CC_COLOURS; r++) {
        tf_buf_addf(b, "%s\"%s\":[", r ? "," : "", cc_row_names[r]);
        for (int i = 0; i < s->row_len[r]; i++) {
            if (i) tf_buf_add(b, ",");
            json_entry(b, s->row[r][i], seat, s->phase == CC_PH_OVER);
        }
        tf_buf_add(b, "]");
    }
    tf_buf_add(b, "},\"removed\":{");
    for (int t = 0, first = 1; t < CC_TYPES; t++)
        if (s->removed[t]) {
            tf_buf_addf(b, "%s\"%s\":%d", first ? "" : ",", cc_cards[t].name, s->removed[t]);
            first = 0;
        }
    tf_buf_add(b, "},\"seats\":[");
    for (int p = 0; p < s->players; p++) json_seat(b, s, p, seat);
    tf_buf_add(b, "]}");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* The cards as data (tafel_game_pieces_json): each type's colour (its row),
** kind, value, animal and copies in the deck; the rows' names. */
int cc_pieces_json(tf_buf *b) {
    static const char *const kinds[] = {"person", "animal", "building", "dragon", "fairy",
                                        "animal_joker", "building_joker"};
    tf_buf_add(b, "{\"cards\":{");
    for (int t = 0; t < CC_TYPES; t++) {
        const cc_card *c = &cc_cards[t];
        tf_buf_addf(b, "%s\"%s\":{\"colour\":", t ? "," : "", c->name);
        if (c->colour >= 0) tf_buf_addf(b, "\"%s\"", cc_row_names[c->colour]);
        else tf_buf_add(b, "null");
        tf_buf_addf(b, ",\"kind\":\"%s\",\"value\":%d,\"animal\":", kinds[c->kind], c->value);
        if (c->animal >= 0) tf_buf_addf(b, "\"%s\"", cc_kind_names[c->animal]);
        else tf_buf_add(b, "null");
        tf_buf_addf(b, ",\"count\":%d}", c->count);
    }
    tf_buf_add(b, "},\"rows\":{");
    for (int r = 0; r < CC_COLOURS; r++)
        tf_buf_addf(b, "%s\"%s\":\"%s\"", r ? "," : "", cc_row_names[r], cc_row_titles[r]);
    tf_buf_add(b, "}}");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

static int is_building(int t) {
    int kind = cc_cards[t].kind;
    return kind == CC_BUILDING || kind == CC_BUILDING_JOKER;
}

/* ---- the terminal picture --------------------------------------------- */

static const char *const card_fg[CC_COLOURS + 1] = {"1;33", "1;31", "1;32", "1;34", "1;35"};

static void put_card(tf_buf *b, int t, int colour, const char *before, const char *after) {
    int c = cc_cards[t].colour < 0 ? CC_COLOURS : cc_cards[t].colour;
    if (colour) tf_buf_addf(b, "%s\x1b[%sm%s\x1b[0m%s", before, card_fg[c], cc_cards[t].name, after);
    else tf_buf_addf(b, "%s%s%s", before, cc_cards[t].name, after);
}

static void put_follower(tf_buf *b, int p, int colour) {
    if (colour) tf_buf_addf(b, " \x1b[1;38;5;231;%sm<%s>\x1b[0m", tf_seat_bg[p], tf_seat_names[p]);
    else tf_buf_addf(b, " <%s>", tf_seat_names[p]);
}

/* The seat other than the viewer whose last card or follower is row r's
** entry i, or -1. */
static int last_of(const cc_state *s, int r, int i, int seat) {
    for (int p = 0; p < s->players; p++)
        if (p != seat && s->last_row[p] == r && s->last_at[p] == i) return p;
    return -1;
}

/* Another player's last move: "r:" before it, the seat's letter in lower
** case (in the seat's colour with colours), as Carcassonne marks last
** tiles.  Inserted after the space that begins each entry's text at. */
static void insert_last_mark(tf_buf *b, size_t at, int p, int colour) {
    char mark[32], letter = (char)(tf_seat_letters[p] - 'A' + 'a');
    if (colour) snprintf(mark, sizeof mark, "\x1b[1;38;5;231;%sm%c\x1b[0m:", tf_seat_bg[p], letter);
    else snprintf(mark, sizeof mark, "%c:", letter);
    size_t n = strlen(mark), end = b->len;
    tf_buf_add(b, mark);
    if (b->oom) return;
    memmove(b->data + at + n, b->data + at, end - at);
    memcpy(b->data + at, mark, n);
}

static void render_row(tf_buf *b, const cc_state *s, int r, int seat, int colour) {
    tf_buf_addf(b, "  %s %-9s|", cc_row_names[r], cc_row_titles[r]);
    if (!s->row_len[r]) tf_buf_add(b, " -");
    for (int i = 0; i < s->row_len[r]; i++) {
        uint8_t e = s->row[r][i];
        size_t at = b->len + 1;
        if (CC_IS_FOLLOWER(e)) put_follower(b, e - CC_FOLLOWER, colour);
        else if (e == CC_GONE) tf_buf_add(b, " __");
        else if (CC_ENTRY_DOWN(e) && CC_ENTRY_OWNER(e) == seat)
            put_card(b, CC_ENTRY_TYPE(e), colour, " [", "*]");
        else if (CC_ENTRY_DOWN(e) && s->phase == CC_PH_OVER) { /* shown at the end */
            char owner[4] = {'@', tf_seat_letters[CC_ENTRY_OWNER(e)], ']', 0};
            put_card(b, CC_ENTRY_TYPE(e), colour, " [", owner);
        }
        else if (CC_ENTRY_DOWN(e)) tf_buf_addf(b, " [%c?]", tf_seat_letters[CC_ENTRY_OWNER(e)]);
        else put_card(b, CC_ENTRY_TYPE(e), colour, " ", "");
        int last = last_of(s, r, i, seat);
        if (last >= 0) insert_last_mark(b, at, last, colour);
    }
    tf_buf_add(b, "\n");
}

static void render_seat(tf_buf *b, const cc_state *s, int p, int colour) {
    int next = cc_current(s);
    tf_buf_addf(b, "%s %-6s %3d points  hand %d  follower %s ", p == next ? ">" : " ",
                tf_seat_names[p], s->score[p], s->hand_count[p],
                s->follower_row[p] == CC_NONE ? "-" : cc_row_names[s->follower_row[p]]);
    tf_buf_add(b, " animals");
    int any = 0;
    for (int k = 0; k < CC_KINDS; k++)
        if (s->animals[p][k]) tf_buf_addf(b, " %s %d", cc_kind_names[k], s->animals[p][k]), any = 1;
    if (!any) tf_buf_add(b, " -");
    if (s->unassigned[p]) tf_buf_addf(b, " +%d joker%s to assign", s->unassigned[p],
                                      s->unassigned[p] == 1 ? "" : "s");
    tf_buf_addf(b, "  chest %d", cc_chest_count(s, p));
    if (cc_chest_count(s, p)) {
        tf_buf_add(b, " (");
        for (int c = 0, first = 1; c < CC_TYPES; c++)
            for (int i = 0; is_building(c) && i < s->taken[p][c]; i++, first = 0)
                put_card(b, c, colour, first ? "" : " ", "");
        tf_buf_add(b, ")");
    }
    tf_buf_add(b, "\n");
}

/* The key (TAFEL_RENDER_KEY): every symbol the picture draws. */
static const char key[] =
    "Key:\n"
    "  Y R G B       rows and card colours: Y cloister, R road, G meadow, B city\n"
    "  Y1 Y2 Y3      a person card of value 1 to 3 (so R1, G2, B3 ... in each colour)\n"
    "  YA YH         an animal card, a building card (so RA, GH ... in each colour)\n"
    "  DRAGON FAIRY  the dragon, the fairy\n"
    "  AJ HJ         an animal joker, a building joker (any row, face up)\n"
    "  [R?]          a face-down card Red played (a player's first card of a round)\n"
    "  [Y1*]         your own face-down card\n"
    "  <Red>         Red's big follower: it secures the cards before it in its row\n"
    "  r:RA  r:[R?]  r:<Red>  what another player played last, marked with its\n"
    "                letter in lower case (Red here)\n"
    "  __            a card taken at round scoring\n"
    "  >             the player to move\n"
    "  chest         building cards won, scored as sets at the end of the game\n";

int cc_render(const void *data, int seat, int flags, tf_buf *b) {
    const cc_state *s = data;
    int colour = flags & TAFEL_RENDER_COLOR;
    int round = s->round < s->rounds ? s->round + 1 : s->rounds;
    tf_buf_addf(b, "Cardcassonne, round %d of %d, %s deals, %d card%s in the pile\n", round,
                s->rounds, tf_seat_names[s->dealer], s->pile_total, s->pile_total == 1 ? "" : "s");
    for (int r = 0; r < CC_COLOURS; r++) render_row(b, s, r, seat, colour);
    tf_buf_add(b, "  ([R?] face down, Red's; [Y1*] your own; <Red> Red's follower; r:RA Red's last)\n");
    for (int p = 0; p < s->players; p++) render_seat(b, s, p, colour);
    if (seat >= 0 && s->phase != CC_PH_OVER) {
        tf_buf_addf(b, "Your hand (%s):", tf_seat_names[seat]);
        for (int t = 0; t < CC_TYPES; t++)
            for (int i = 0; i < s->hand[seat][t]; i++) put_card(b, t, colour, " ", "");
        if (!s->hand_count[seat]) tf_buf_add(b, " empty");
        if (s->phase == CC_PH_PLAY && s->turn == seat && s->hand_count[seat])
            tf_buf_add(b, s->played[seat] ? "  (face up, into its own row; jokers anywhere)"
                                          : "  (your first card this round: face down, any row)");
        tf_buf_add(b, "\n");
    }
    if (s->phase == CC_PH_ROW)
        tf_buf_addf(b, "%s turned up %s: the dealer puts it in a row\n", tf_seat_names[s->dealer],
                    cc_cards[s->setup_joker].name);
    if (s->phase == CC_PH_WRONG)
        tf_buf_addf(b, "%s won %s, wrongly placed in the %s row: 10 points (ten) or keep it\n",
                    tf_seat_names[s->turn],
                    cc_cards[CC_ENTRY_TYPE(s->row[s->score_row][s->score_pos])].name,
                    cc_row_titles[s->score_row]);
    if (s->phase == CC_PH_ASSIGN)
        tf_buf_addf(b, "%s assigns an animal joker to a kind\n", tf_seat_names[s->turn]);
    if (s->phase == CC_PH_OVER) tf_buf_add(b, "The game is over.\n");
    if (flags & TAFEL_RENDER_KEY) tf_buf_add(b, key);
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* ---- resampling ------------------------------------------------------- */

/* One card drawn uniformly from pool. */
static int draw_from(uint8_t *pool, uint64_t *rng) {
    int total = 0;
    for (int t = 0; t < CC_TYPES; t++) total += pool[t];
    int r = (int)tafel_rng_below(rng, (uint32_t)total), t = 0;
    for (; r >= pool[t]; t++) r -= pool[t];
    pool[t]--;
    return t;
}

/* The stretches of s counted from its rows: the open ones by row, and
** those the placed followers secured. */
static void recount_stretches(const cc_state *s, cc_stretch open[CC_COLOURS],
                              cc_stretch secured[TAFEL_MAX_PLAYERS]) {
    for (int r = 0; r < CC_COLOURS; r++)
        cc_stretch_recount(s, r, s->row_secured[r], s->row_len[r], &open[r]);
    for (int p = 0; p < TAFEL_MAX_PLAYERS; p++) {
        if (p < s->players && s->follower_row[p] != CC_NONE)
            cc_stretch_recount(s, s->follower_row[p], s->follower_from[p],
                               s->follower_at[p], &secured[p]);
        else
            memset(&secured[p], 0, sizeof secured[p]);
    }
}

/* Every card seat cannot see goes back into one pool, and is dealt again
** into the same places: hands and face-down cards; the rest is the pile.
** Each consistent deal is equally likely.  Chests are public (every card
** in one was shown when it was won), so they stay as they are. */
int cc_resample(void *data, int seat, uint64_t *rng) {
    cc_state *s = data;
    if (s->phase == CC_PH_OVER) return TAFEL_OK; /* the end shows every card */
    uint8_t pool[CC_TYPES];
    memcpy(pool, s->pile, sizeof pool);
    for (int p = 0; p < s->players; p++) {
        if (p == seat) continue;
        for (int t = 0; t < CC_TYPES; t++) pool[t] = (uint8_t)(pool[t] + s->hand[p][t]);
    }
    for (int r = 0; r < CC_COLOURS; r++)
        for (int i = 0; i < s->row_len[r]; i++) {
            uint8_t e = s->row[r][i];
            if (CC_ENTRY_DOWN(e) && CC_ENTRY_OWNER(e) != seat) pool[CC_ENTRY_TYPE(e)]++;
        }
    for (int p = 0; p < s->players; p++) {
        if (p == seat) continue;
        int n = s->hand_count[p];
        memset(s->hand[p], 0, sizeof s->hand[p]);
        s->hand_count[p] = 0;
        s->hand_mask[p] = 0;
        for (int k = 0; k < n; k++) cc_hand_add(s, p, draw_from(pool, rng), 1);
    }
    for (int r = 0; r < CC_COLOURS; r++)
        for (int i = 0; i < s->row_len[r]; i++) {
            uint8_t e = s->row[r][i];
            if (CC_ENTRY_DOWN(e) && CC_ENTRY_OWNER(e) != seat)
                s->row[r][i] = (uint8_t)((e & ~31) | draw_from(pool, rng));
        }
    recount_stretches(s, s->open, s->secured); /* face-down cards changed */
    memcpy(s->pile, pool, sizeof pool);
    cc_pile_upto(s->pile, s->pile_upto);
    return TAFEL_OK;
}

/* ---- invariants ------------------------------------------------------- */

int cc_check(const void *data, tafel_error *err) {
    const cc_state *s = data;
    int count[CC_TYPES], total = 0, pile = 0;
    for (int t = 0; t < CC_TYPES; t++) {
        count[t] = s->pile[t] + s->removed[t];
        pile += s->pile[t];
    }
    if (s->players < 2 || s->players > 5 || s->hand_size != cc_hand_size[s->players])
        return tf_error(err, TAFEL_ESTATE, "%d players with hands of %d", s->players,
                        s->hand_size);
    if (s->phase > CC_PH_OVER)
        return tf_error(err, TAFEL_ESTATE, "there is no phase %d", s->phase);
    if (s->phase == CC_PH_DEAL &&
        (s->dealt >= s->hand_size * s->players || s->deal_to != (s->dealer + 1 + s->dealt) % s->players))
        return tf_error(err, TAFEL_ESTATE, "card %d of the deal goes to seat %d", s->dealt,
                        s->deal_to);
    if (s->actor != cc_actor_of(s))
        return tf_error(err, TAFEL_ESTATE, "the stored actor is %d, not %d", s->actor,
                        cc_actor_of(s));
    if (pile != s->pile_total)
        return tf_error(err, TAFEL_ESTATE, "the pile holds %d cards, not %d", pile,
                        s->pile_total);
    uint8_t upto[CC_PILE_UPTO];
    cc_pile_upto(s->pile, upto);
    if (memcmp(upto, s->pile_upto, sizeof upto))
        return tf_error(err, TAFEL_ESTATE, "the pile's running counts are wrong");
    for (int p = 0; p < s->players; p++) {
        int hand = 0, jokers = 0;
        uint32_t mask = 0;
        for (int t = 0; t < CC_TYPES; t++) {
            count[t] += s->hand[p][t] + s->taken[p][t];
            hand += s->hand[p][t];
            if (s->hand[p][t]) mask |= 1u << t;
        }
        if (hand != s->hand_count[p] || mask != s->hand_mask[p])
            return tf_error(err, TAFEL_ESTATE, "seat %d: hand count or mask is wrong", p);
        if (hand > s->hand_size) /* legal_play_fast's loop relies on it */
            return tf_error(err, TAFEL_ESTATE, "seat %d holds more than %d cards", p,
                            s->hand_size);
        for (int k = 0; k < CC_KINDS; k++) {
            int cards = 0;
            for (int t = 0; t < CC_TYPES; t++)
                if (cc_cards[t].animal == k) cards += s->taken[p][t];
            if (s->animals[p][k] != cards + s->jokers_as[p][k])
                return tf_error(err, TAFEL_ESTATE, "seat %d: %s count is wrong", p,
                                cc_kind_names[k]);
            if (s->jokers_as[p][k] && !cards)
                return tf_error(err, TAFEL_ESTATE, "seat %d: an animal joker is a %s "
                                "without a %s card to join", p, cc_kind_names[k],
                                cc_kind_names[k]);
            jokers += s->jokers_as[p][k];
        }
        if (p == s->turn && s->phase == CC_PH_ASSIGN) jokers += s->new_jokers;
        if (jokers + s->unassigned[p] != s->taken[p][CC_AJ_TYPE])
            return tf_error(err, TAFEL_ESTATE, "seat %d: animal jokers do not add up", p);
        int sum = 0;
        for (int i = 0; i < CC_PTS_CATEGORIES; i++) sum += s->points[p][i];
        if (sum != s->score[p])
            return tf_error(err, TAFEL_ESTATE, "seat %d: score is not its categories' sum", p);
    }
    int followers[TAFEL_MAX_PLAYERS] = {0};
    for (int r = 0; r < CC_COLOURS; r++)
        for (int i = 0; i < s->row_len[r]; i++) {
            uint8_t e = s->row[r][i];
            if (CC_IS_FOLLOWER(e)) {
                int p = e - CC_FOLLOWER;
                if (p >= s->players || s->follower_row[p] != r || followers[p]++)
                    return tf_error(err, TAFEL_ESTATE, "a follower of seat %d is misplaced", p);
            } else if (e != CC_GONE) {
                if (CC_ENTRY_TYPE(e) >= CC_TYPES)
                    return tf_error(err, TAFEL_ESTATE, "row %s holds no card", cc_row_names[r]);
                count[CC_ENTRY_TYPE(e)]++;
            }
        }
    for (int r = 0; r < CC_COLOURS; r++) {
        int last = s->row_len[r];
        while (last > 0 && !CC_IS_FOLLOWER(s->row[r][last - 1])) last--;
        if (last != s->row_secured[r])
            return tf_error(err, TAFEL_ESTATE, "row %s: the secured part is misrecorded",
                            cc_row_names[r]);
    }
    for (int p = 0; p < s->players; p++)
        if (!followers[p] != (s->follower_row[p] == CC_NONE) ||
            (followers[p] && (s->follower_at[p] >= s->row_len[s->follower_row[p]] ||
                              s->row[s->follower_row[p]][s->follower_at[p]] != CC_FOLLOWER + p)))
            return tf_error(err, TAFEL_ESTATE, "seat %d's follower is not in its row", p);
    for (int p = 0; p < s->players; p++) {
        if (s->follower_row[p] == CC_NONE) continue;
        int from = s->follower_at[p];
        while (from > 0 && !CC_IS_FOLLOWER(s->row[s->follower_row[p]][from - 1])) from--;
        if (from != s->follower_from[p])
            return tf_error(err, TAFEL_ESTATE, "seat %d: its secured stretch is misrecorded", p);
    }
    for (int p = 0; p < TAFEL_MAX_PLAYERS; p++) {
        int row = s->last_row[p], e = row < CC_COLOURS ? s->row[row][s->last_at[p]] : 0;
        if (row == CC_NONE) continue;
        if (p >= s->players || row >= CC_COLOURS || s->last_at[p] >= s->row_len[row] ||
            (CC_IS_FOLLOWER(e) && e != CC_FOLLOWER + p) ||
            (CC_ENTRY_DOWN(e) && CC_ENTRY_OWNER(e) != p))
            return tf_error(err, TAFEL_ESTATE, "seat %d's last card is not where it was played", p);
    }
    cc_stretch open[CC_COLOURS], secured[TAFEL_MAX_PLAYERS];
    recount_stretches(s, open, secured);
    for (int r = 0; r < CC_COLOURS; r++)
        if (memcmp(&open[r], &s->open[r], sizeof open[r]))
            return tf_error(err, TAFEL_ESTATE, "row %s: the counts of its open stretch are wrong",
                            cc_row_names[r]);
    for (int p = 0; p < TAFEL_MAX_PLAYERS; p++)
        if (memcmp(&secured[p], &s->secured[p], sizeof secured[p]))
            return tf_error(err, TAFEL_ESTATE, "seat %d: the counts of its secured stretch are wrong", p);
    for (int t = 0; t < CC_TYPES; t++) {
        int kind = cc_cards[t].kind;
        if (cc_leaves[t] != (kind == CC_PERSON || kind == CC_DRAGON || kind == CC_FAIRY ? 0xFF : 0))
            return tf_error(err, TAFEL_ESTATE, "the table of cards that leave the game is wrong");
        const cc_card *c = &cc_cards[t];
        int person = c->colour >= 0 && kind == CC_PERSON, choice = c->colour >= 0 && !person;
        const cc_wrong4 wrong = cc_wrong_add[1][t], none = cc_wrong_add[0][t];
        if (wrong[0] != person || wrong[1] != person * c->value || wrong[2] != choice ||
            wrong[3] != 0 || none[0] | none[1] | none[2] | none[3])
            return tf_error(err, TAFEL_ESTATE, "the table of wrongly placed cards is wrong");
        if ((kind == CC_ANIMAL || kind == CC_BUILDING) !=
            (t < CC_DRAGON_TYPE && t % CC_PER_COLOUR >= 3)) /* needs_choice relies on it */
            return tf_error(err, TAFEL_ESTATE, "animals and buildings are not where expected");
    }
    if (s->phase == CC_PH_ROW) count[s->setup_joker]++;
    for (int t = 0; t < CC_TYPES; t++) {
        if (count[t] != cc_cards[t].count)
            return tf_error(err, TAFEL_ESTATE, "%d %s cards are accounted for, not %d",
                            count[t], cc_cards[t].name, cc_cards[t].count);
        total += count[t];
    }
    if (total != CC_CARDS)
        return tf_error(err, TAFEL_ESTATE, "%d cards are accounted for, not %d", total, CC_CARDS);
    return TAFEL_OK;
}
