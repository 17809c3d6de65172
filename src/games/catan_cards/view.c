/*
** view.c -- what one seat sees (JSON and a terminal picture), resampling of
** what it cannot see, and the invariants of a state.
**
** Public: both principalities (regions and their resources, buildings,
** expansions), the central stacks' sizes, the tokens, the dice.  Hidden:
** the hands, the order of the expansion stacks, the region stack and the
** event deck, except the slots the seat knows (catan.h).  Resampling
** permutes the cards a seat does not know among the slots it does not know,
** separately for expansion cards, regions and events.
*/
#include "catan.h"
#include "say.h"
#include "seats.h"

#include <stdio.h>
#include <string.h>

static const char *const centre_names[] = {"empty", "road", "settlement", "city"};

static const char *const frame_names[F_FRAME_KINDS] = {
    [F_DEAL_STACKS] = "deal-stacks", [F_DEAL_REGIONS] = "deal-regions",
    [F_DEAL_EVENTS] = "deal-events", [F_DIE] = "die", [F_EVENT_DIE] = "event-die",
    [F_DUEL] = "duel", [F_ARRANGE] = "arrange", [F_START_STACK] = "start-stack",
    [F_START_TAKE] = "start-take", [F_ROLL] = "roll", [F_GAIN] = "gain", [F_TAKE] = "take",
    [F_MAIN] = "main", [F_PLACE_REGIONS] = "place-regions", [F_REFILL] = "refill",
    [F_PAY_SEARCH] = "pay-search", [F_SEARCH_TAKE] = "search-take", [F_DISCARD] = "discard",
    [F_EXCHANGE_TAKE] = "exchange-take", [F_OFFER] = "offer", [F_COUNTER] = "counter",
    [F_PICK_SITE] = "pick", [F_CARAVAN] = "caravan", [F_MERCHANT_TAKE] = "merchant-take",
    [F_MERCHANT_GIVE] = "merchant-give", [F_SPY_TAKE] = "spy", [F_CONFLICT_PICK] = "conflict",
    [F_MASTER_SEARCH] = "master-builder", [F_MASTER_TAKE] = "master-take",
    [F_MASTER_PUT] = "master-put", [F_SCOUT_PICK] = "scout",
    [F_BANK] = "bank", [F_NEGOTIATE] = "negotiate",
    [F_TURN] = "turn", [F_EVENT] = "event", [F_PRODUCTION] = "production",
    [F_EVENT_CARD] = "event-card", [F_LIMIT] = "limit", [F_DUEL_RESULT] = "duel-result",
};

static void json_card_list(tf_buf *b, const uint8_t *cards, const uint8_t *known, int n,
                           int seat, const char *(*name)(int)) {
    tf_buf_add(b, "[");
    for (int i = 0; i < n; i++)
        tf_buf_addf(b, "%s\"%s\"", i ? "," : "",
                    seat < 0 || !(known[i] >> seat & 1) ? "?" : name(cards[i]));
    tf_buf_add(b, "]");
}

static const char *card_code(int t) { return ct_cards[t].code; }
static const char *region_code(int r) { return ct_region_cards[r].name; }
static const char *event_code(int e) { return ct_event_codes[e]; }

static void json_player(tf_buf *b, const ct_state *s, int who, int seat) {
    const ct_player *p = &s->p[who];
    tf_buf_addf(b, "%s{\"vp\":%d,\"strength\":%d,\"tournament\":%d,\"trade\":%d,"
                "\"hand_limit\":%d,\"hand_count\":%d,\"resources\":{",
                who ? "," : "", ct_vp(s, who), ct_strength(s, who), ct_tournament(s, who),
                ct_trade_points(s, who), ct_hand_limit(s, who), p->hand_len);
    for (int r = 0; r < CT_RES; r++)
        tf_buf_addf(b, "%s\"%s\":%d", r ? "," : "", ct_res_codes[r], ct_stock(s, who, r));
    tf_buf_add(b, "},\"hand\":[");
    for (int i = 0; i < p->hand_len; i++) {
        int visible = seat == who || (seat >= 0 && (p->hand_known >> i & 1));
        tf_buf_addf(b, "%s\"%s\"", i ? "," : "", visible ? ct_cards[p->hand[i]].code : "?");
    }
    tf_buf_add(b, "],\"centre\":[");
    for (int c = p->left, first = 1; c <= p->right; c++, first = 0)
        tf_buf_addf(b, "%s{\"col\":%d,\"what\":\"%s\"}", first ? "" : ",", c - CT_COL0,
                    centre_names[p->centre[c]]);
    tf_buf_add(b, "],\"regions\":[");
    int first = 1;
    for (int c = p->left - 1; c <= p->right + 1; c++)
        for (int r = 0; r < 2; r++) {
            const ct_region *g = &p->region[c][r];
            if (g->card == CT_NONE) continue;
            const ct_region_card *rc = &ct_region_cards[g->card];
            tf_buf_addf(b, "%s{\"col\":%d,\"row\":%d,\"region\":\"%s\",\"kind\":\"%s\","
                        "\"number\":%d,\"stock\":%d}",
                        first ? "" : ",", c - CT_COL0, r ? 1 : -1, rc->name,
                        ct_region_names[rc->kind], rc->number, g->stock);
            first = 0;
        }
    tf_buf_add(b, "],\"expansions\":[");
    first = 1;
    for (int c = p->left; c <= p->right; c++)
        for (int r = 0; r < CT_SITE_ROWS; r++) {
            if (p->site[c][r] == CT_NONE) continue;
            tf_buf_addf(b, "%s{\"col\":%d,\"row\":%d,\"card\":\"%s\"}", first ? "" : ",",
                        c - CT_COL0, ct_site_row(r), ct_cards[p->site[c][r]].code);
            first = 0;
        }
    tf_buf_add(b, "],\"last_build\":");
    char text[TAFEL_ACTION_TEXT_MAX];
    if (s->last_build[who] >= 0 && ct_to_text(s, s->last_build[who], text, sizeof text) > 0)
        tf_buf_addf(b, "\"%s\",\"last_build_turn\":%d", text, s->last_build_turn[who]);
    else
        tf_buf_add(b, "null,\"last_build_turn\":null");
    tf_buf_add(b, "}");
}

/* A cost by resource code, the resources it needs only: {"B":2,"L":1}. */
static void json_cost(tf_buf *b, const uint8_t cost[CT_RES_WORD]) {
    tf_buf_add(b, "{");
    for (int r = 0, first = 1; r < CT_RES; r++)
        if (cost[r]) tf_buf_addf(b, "%s\"%s\":%d", first ? "" : ",", ct_res_codes[r], cost[r]), first = 0;
    tf_buf_add(b, "}");
}

/* The cards as data (tafel_game_pieces_json): for each card its name,
** colour (green: any site; red: a city's; yellow: an action), what it is,
** copies, cost by resource, points and knight values; the events; the
** resources and region kinds in notation order; the common stacks' pieces
** (road, settlement, city) with their cost and the points each is worth
** standing (principality.c, recount). */
int ct_pieces_json(tf_buf *b) {
    static const char *const colours[] = {"green", "red", "yellow"};
    static const char *const whats[] = {"building", "unit", "action"};
    tf_buf_add(b, "{\"resources\":[");
    for (int r = 0; r < CT_RES; r++)
        tf_buf_addf(b, "%s{\"code\":\"%s\",\"name\":\"%s\",\"region\":\"%s\"}", r ? "," : "",
                    ct_res_codes[r], ct_res_names[r], ct_region_names[r]);
    tf_buf_add(b, "],\"cards\":{");
    for (int t = 0; t < CT_CARD_TYPES; t++) {
        const ct_card *c = &ct_cards[t];
        tf_buf_addf(b, "%s\"%s\":{\"name\":\"%s\",\"colour\":\"%s\",\"what\":\"%s\","
                       "\"count\":%d,\"cost\":",
                    t ? "," : "", c->code, c->name, colours[c->colour], whats[c->what], c->count);
        json_cost(b, c->cost);
        tf_buf_addf(b, ",\"vp\":%d,\"trade\":%d,\"strength\":%d,\"tournament\":%d}", c->vp,
                    c->trade, c->strength, c->tournament);
    }
    tf_buf_add(b, "},\"events\":{");
    for (int e = 0; e < CT_EVENT_TYPES; e++)
        tf_buf_addf(b, "%s\"%s\":{\"name\":\"%s\",\"count\":%d}", e ? "," : "", ct_event_codes[e],
                    ct_event_names[e], ct_event_counts[e]);
    static const char *const names[3] = {"road", "settlement", "city"};
    static const uint8_t *const costs[3] = {ct_road_cost, ct_settlement_cost, ct_city_cost};
    static const int vps[3] = {0, 1, 2};
    tf_buf_add(b, "},\"central\":{");
    for (int i = 0; i < 3; i++) {
        tf_buf_addf(b, "%s\"%s\":{\"cost\":", i ? "," : "", names[i]);
        json_cost(b, costs[i]);
        tf_buf_addf(b, ",\"vp\":%d}", vps[i]);
    }
    tf_buf_add(b, "}}");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

int ct_view_json(const void *data, int seat, tf_buf *b) {
    const ct_state *s = data;
    int next = ct_current(s), frame = ct_frame_kind(s);
    tf_buf_addf(b, "{\"game\":\"catan_cards(players=2%s", s->win_on_own_turn ? ",win_on_own_turn=true" : "");
    if (s->max_turns != 400) tf_buf_addf(b, ",max_turns=%d", s->max_turns);
    tf_buf_addf(b, ")\",\"seat\":%d,\"players\":2,", seat);
    if (next >= 0) tf_buf_addf(b, "\"next\":%d", next);
    else tf_buf_addf(b, "\"next\":\"%s\"", next == TAFEL_CHANCE ? "chance" : "terminal");
    tf_buf_addf(b, ",\"frame\":\"%s\",\"turn\":%d,\"active\":%d,\"die\":%d,\"event_die\":",
                frame >= 0 ? frame_names[frame] : "over", s->turn, s->active, s->die);
    if (s->turn) tf_buf_addf(b, "\"%s\"", ct_face_codes[s->face]);
    else tf_buf_add(b, "null");
    tf_buf_addf(b, ",\"draw\":%s,\"knight_token\":", s->draw_game ? "true" : "false");
    if (s->knight_token >= 0) tf_buf_addf(b, "%d", s->knight_token);
    else tf_buf_add(b, "null");
    tf_buf_add(b, ",\"windmill\":");
    if (s->windmill >= 0) tf_buf_addf(b, "%d", s->windmill);
    else tf_buf_add(b, "null");
    tf_buf_addf(b, ",\"central\":{\"roads\":%d,\"settlements\":%d,\"cities\":%d},\"stacks\":[",
                s->roads_left, s->settlements_left, s->cities_left);
    for (int k = 0; k < CT_STACKS; k++) {
        if (k) tf_buf_add(b, ",");
        json_card_list(b, s->stack[k], s->stack_known[k], s->stack_len[k], seat, card_code);
    }
    tf_buf_add(b, "],\"region_stack\":");
    json_card_list(b, s->regions, s->regions_known, s->regions_len, seat, region_code);
    tf_buf_add(b, ",\"event_deck\":");
    int events = frame == F_DEAL_EVENTS ? s->dealt : CT_EVENT_CARDS;
    json_card_list(b, s->events, s->events_known, events, seat, event_code);
    tf_buf_add(b, ",\"played_out\":{");
    for (int t = 0, first = 1; t < CT_CARD_TYPES; t++)
        if (s->played_out[t]) {
            tf_buf_addf(b, "%s\"%s\":%d", first ? "" : ",", ct_cards[t].code, s->played_out[t]);
            first = 0;
        }
    tf_buf_add(b, "}");
    if (frame == F_PLACE_REGIONS)
        tf_buf_addf(b, ",\"drawn_regions\":[\"%s\",\"%s\"]",
                    ct_region_cards[s->drawn_regions[0]].name,
                    ct_region_cards[s->drawn_regions[1]].name);
    tf_buf_addf(b, ",\"declined_offers\":%d", s->declined); /* 3 stop negotiating */
    if (frame == F_OFFER)
        tf_buf_addf(b, ",\"offer\":{\"give\":\"%d%s\",\"get\":\"%d%s\"}", s->offer[1],
                    ct_res_codes[s->offer[0]], s->offer[3], ct_res_codes[s->offer[2]]);
    tf_buf_add(b, ",\"players_info\":[");
    for (int who = 0; who < 2; who++) json_player(b, s, who, seat);
    tf_buf_add(b, "]}");
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* ---- the terminal picture ------------------------------------------------------ */

/* A terminal prints the picture before every decision, so it is short: a
** principality is a title line, its column numbers and the rows that hold
** something, each column as wide as what it holds; inside a step of a turn
** (a roll, a trade, a gain, a payment, a refill...) only the principality
** the decision is about is drawn, the other one as its title line, unless
** TAFEL_RENDER_WHOLE.  It says what the last roll did (the event card by
** name), and what the opponent built or played last. */

static const char *const centre_words[] = {"", "road", "settlement", "city"};

static const char *const face_words[CT_EVENT_FACES] = {
    "tournament", "trade advantage", "brigand attack", "good year", "event card"};

static const char *const face_effects[CT_EVENT_FACES] = {
    "the player with more tournament points gains 1 resource",
    "the windmill holder takes 1 resource from the other",
    "over 7 resources: all ore and wool are lost (Garrisons protect)",
    "each player gains 1 resource",
    "an event card turns up",
};

static const char *const event_effects[CT_EVENT_TYPES] = {
    [CT_EV_CIVIL_WAR] = ("each player sends one of the other's units back to hand (Church "
                         "protects)"),
    [CT_EV_CONFLICT] = "the knight token holder puts 2 cards of the other hand under stacks",
    [CT_EV_MASTER_BUILDER] = "each player may search a stack, take a card and put one back",
    [CT_EV_PLAGUE] = "each region next to a city loses 1 (Bath house, Aqueduct protect)",
    [CT_EV_PRODUCTIVE_YEAR] = "each region gains 1 for each Garrison next to it",
    [CT_EV_PROGRESS] = "each player gains 1 resource for each Abbey and Library",
    [CT_EV_YEAR_END] = "the event deck is shuffled again",
};

/* The last event card turned up, or -1.  A card turned up goes under the
** deck face up, known to both (game.c), so the bottom card is the last
** one; Year end shuffles the deck, itself included, and then the last
** event die face (an event card) says that it was Year end.  After Year end
** and rolls of other faces nothing tells it any more. */
int ct_last_event_card(const ct_state *s) {
    if (s->events_known[CT_EVENT_CARDS - 1] == 3) return s->events[CT_EVENT_CARDS - 1];
    if (s->die && s->face == CT_DIE_EVENT) return CT_EV_YEAR_END;
    return -1;
}

/* The event die's face is the last turn's while this turn's is still to
** be rolled after the production die (an Alchemist's number, or a picture
** taken at that chance node). */
static int face_rolled(const ct_state *s) {
    return s->die && ct_frame_kind(s) != F_EVENT_DIE;
}

/* A seat's name, a word of the picture. */
static void say_seat(tf_buf *b, int flags, int seat) {
    tf_say say;
    tf_say_begin(&say, b, flags, "seat");
    tf_say_int(&say, "seat", seat);
    tf_say_end(&say, "%s", tf_seat_names[seat]);
}

static void render_header(tf_buf *b, const ct_state *s, int flags) {
    tf_say say;
    if (!s->turn) {
        tf_say_text(b, flags, "setup", "Catan card game, setup");
        tf_buf_add(b, "\n");
        return;
    }
    tf_say_begin(&say, b, flags, "turn");
    tf_say_int(&say, "turn", s->turn);
    tf_say_end(&say, "Catan card game, turn %d", s->turn);
    if (!s->over) {
        tf_buf_add(b, " ");
        tf_say_begin(&say, b, flags, "turn_of");
        tf_say_int(&say, "seat", s->active);
        tf_say_end(&say, "(%s's turn)", tf_seat_names[s->active]);
    }
    if (s->die) {
        tf_say_begin(&say, b, flags, "die");
        tf_say_int(&say, "die", s->die);
        tf_say_end(&say, ", die %d", s->die);
    }
    int event = ct_last_event_card(s);
    if (event >= 0 && !(face_rolled(s) && s->face == CT_DIE_EVENT)) { /* else the next line */
        tf_say_begin(&say, b, flags, "last_event");
        tf_say_str(&say, "event_card", ct_event_codes[event]);
        tf_say_end(&say, "; last event card: %s", ct_event_names[event]);
    }
    tf_buf_add(b, "\n");
}

/* What the last roll of the event die did, in words. */
static void render_event(tf_buf *b, const ct_state *s, int flags) {
    if (!face_rolled(s)) return;
    int event = ct_last_event_card(s);
    char kind[40];
    tf_say say;
    if (s->face == CT_DIE_EVENT && event >= 0) {
        tf_say_begin(&say, b, flags, "event_card");
        tf_say_str(&say, "event_card", ct_event_codes[event]);
        tf_say_end(&say, "Event card: %s", ct_event_names[event]);
        tf_buf_add(b, " - ");
        snprintf(kind, sizeof kind, "effect_%s", ct_event_codes[event]);
        tf_say_text(b, flags, kind, event_effects[event]);
        tf_buf_add(b, "\n");
        return;
    }
    tf_say_begin(&say, b, flags, "event_die");
    tf_say_str(&say, "face", ct_face_codes[s->face]);
    tf_say_end(&say, "Event die: %s", face_words[s->face]);
    tf_buf_add(b, " - ");
    snprintf(kind, sizeof kind, "face_effect_%s", ct_face_codes[s->face]);
    tf_say_text(b, flags, kind, face_effects[s->face]);
    tf_buf_add(b, "\n");
}

/* Each other seat's last build or action card, with the regions a new
** settlement took (the settlement is still the end of its side: a later
** road there would be the last build). */
static void render_last_builds(tf_buf *b, const ct_state *s, int seat, int flags) {
    for (int who = 0; who < 2; who++) {
        int a = s->last_build[who];
        if (who == seat || a < 0) continue;
        char text[TAFEL_ACTION_TEXT_MAX];
        ct_to_text(s, a, text, sizeof text);
        tf_say say;
        tf_say_begin(&say, b, flags, "last_build");
        tf_say_int(&say, "seat", who), tf_say_int(&say, "turn", s->last_build_turn[who]);
        tf_say_str(&say, "move", text);
        tf_say_end(&say, "%s's last build or action card (turn %d): %s", tf_seat_names[who],
                   s->last_build_turn[who], text);
        const ct_player *p = &s->p[who];
        if (a >= A_SETTLE && a < A_CITY) {
            int side = (a - A_SETTLE) & 1, end = side ? p->right : p->left;
            int col = side ? end + 1 : end - 1;
            const ct_region *g = p->region[col];
            if (p->centre[end] == CT_SETTLEMENT && g[0].card != CT_NONE && g[1].card != CT_NONE) {
                tf_buf_add(b, " ");
                tf_say_begin(&say, b, flags, "settled");
                tf_say_str(&say, "above", ct_region_cards[g[0].card].name);
                tf_say_str(&say, "below", ct_region_cards[g[1].card].name);
                tf_say_end(&say, "(%s above, %s below)", ct_region_cards[g[0].card].name,
                           ct_region_cards[g[1].card].name);
            }
        }
        tf_buf_add(b, "\n");
    }
}

/* The place (1..6) of a start region not yet arranged at (col, r), else 0:
** the order "arrange" names them in (game.c, arrange). */
static int start_place(const ct_player *p, int col, int r) {
    int pos = col - (CT_COL0 - 1);
    if (p->region[col][r].card != CT_NONE || pos < 0 || pos > 4 || pos % 2) return 0;
    return r * 3 + pos / 2 + 1;
}

/* What one cell shows; line 0..4 is row -2..+2. */
static void cell_of(const ct_state *s, int who, int c, int line, char *cell, size_t n) {
    const ct_player *p = &s->p[who];
    int row = line - 2;
    cell[0] = 0;
    if (row == 0) {
        snprintf(cell, n, "%s", centre_words[p->centre[c]]);
    } else if (c % 2) { /* odd: regions at rows -1 and +1 */
        if (row != -1 && row != 1) return;
        const ct_region *g = &p->region[c][row > 0];
        if (g->card != CT_NONE) {
            const ct_region_card *rc = &ct_region_cards[g->card];
            snprintf(cell, n, "%s%d:%d", ct_res_codes[rc->kind], rc->number, g->stock);
        } else if (start_place(p, c, row > 0)) {
            snprintf(cell, n, "#%d", start_place(p, c, row > 0));
        }
    } else {
        int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
        if (p->site[c][ri] != CT_NONE) snprintf(cell, n, "%s", ct_cards[p->site[c][ri]].code);
        else if (ct_site_exists(s, who, c, ri)) snprintf(cell, n, ".");
    }
}

/* A line without the blanks at its end. */
static void add_line(tf_buf *b, char *line) {
    size_t len = strlen(line);
    while (len && line[len - 1] == ' ') line[--len] = 0;
    tf_buf_addf(b, "%s\n", line);
}

/* The grid: column numbers, then the rows that hold something (rows -2
** and +2 only once a city stands). */
static void render_grid(tf_buf *b, const ct_state *s, int who) {
    static const char *const row_label[5] = {"-2", "-1", " 0", "+1", "+2"};
    const ct_player *p = &s->p[who];
    int first = p->left - 1, ncols = p->right + 1 - first + 1;
    char cells[5][CT_COLS][24], line[CT_COLS * 26 + 16];
    int width[CT_COLS], shown[5] = {0, 1, 1, 1, 0}, total = 4;
    for (int i = 0; i < ncols; i++) {
        width[i] = snprintf(line, sizeof line, "%d", first + i - CT_COL0);
        for (int l = 0; l < 5; l++) {
            cell_of(s, who, first + i, l, cells[l][i], sizeof cells[l][i]);
            if (cells[l][i][0]) shown[l] = 1;
        }
    }
    for (int i = 0; i < ncols; i++) {
        for (int l = 0; l < 5; l++) {
            int w = (int)strlen(cells[l][i]);
            if (shown[l] && w > width[i]) width[i] = w;
        }
        total += width[i];
    }
    int gap = total + 2 * ncols <= 80 ? 2 : 1; /* narrow when wide */
    for (int l = -1; l < 5; l++) {
        if (l >= 0 && !shown[l]) continue;
        int used = snprintf(line, sizeof line, "  %s", l < 0 ? "  " : row_label[l]);
        for (int i = 0; i < ncols; i++) {
            char number[8];
            snprintf(number, sizeof number, "%d", first + i - CT_COL0);
            used += snprintf(line + used, sizeof line - (size_t)used, "%*s%-*s", gap, "",
                             width[i], l < 0 ? number : cells[l][i]);
        }
        add_line(b, line);
    }
}

static void render_player(tf_buf *b, const ct_state *s, int who, int focus, int flags) {
    const ct_player *p = &s->p[who];
    int vp = ct_vp(s, who);
    tf_say say;
    tf_say_begin(&say, b, flags, "player");
    tf_say_int(&say, "seat", who), tf_say_int(&say, "vp", vp);
    tf_say_end(&say, "%s %d point%s", tf_seat_names[who], vp, vp == 1 ? "" : "s");
    if (s->knight_token == who || s->windmill == who) {
        int both = s->knight_token == who && s->windmill == who;
        tf_buf_add(b, " ");
        tf_say_begin(&say, b, flags, both ? "tokens_both" : s->windmill == who ? "tokens_windmill"
                                                                                 : "tokens_knight");
        tf_say_end(&say, "(%s%s%s)", s->knight_token == who ? "knight" : "", both ? ", " : "",
                   s->windmill == who ? "windmill" : "");
    }
    tf_buf_add(b, " ");
    for (int r = 0; r < CT_RES; r++) tf_buf_addf(b, " %s%d", ct_res_codes[r], ct_stock(s, who, r));
    tf_buf_add(b, "  ");
    tf_say_begin(&say, b, flags, "counts");
    tf_say_int(&say, "hand", p->hand_len), tf_say_int(&say, "limit", ct_hand_limit(s, who));
    tf_say_int(&say, "strength", ct_strength(s, who));
    tf_say_int(&say, "tournament", ct_tournament(s, who));
    tf_say_int(&say, "trade", ct_trade_points(s, who));
    tf_say_end(&say, "hand %d/%d  strength %d tournament %d trade %d", p->hand_len,
               ct_hand_limit(s, who), ct_strength(s, who), ct_tournament(s, who),
               ct_trade_points(s, who));
    tf_buf_add(b, "\n");
    if (focus >= 0 && focus != who) {
        tf_buf_add(b, "  ");
        tf_say_begin(&say, b, flags, "left_out");
        tf_say_int(&say, "seat", who);
        tf_say_end(&say, "(%s's principality is left out during this step)", tf_seat_names[who]);
        tf_buf_add(b, "\n");
    } else
        render_grid(b, s, who);
}

/* What the decision on top is about, in words. */
static void render_prompt(tf_buf *b, const ct_state *s, int seat, int flags) {
    if (s->over || !s->nframes) return;
    const ct_frame *f = &s->frame[s->nframes - 1];
    const char *who = tf_seat_names[f->seat];
    tf_say say;
    switch (f->kind) {
    case F_ARRANGE: {
        char cards[96];
        ct_start_regions_example(f->seat, cards, sizeof cards);
        tf_say_begin(&say, b, flags, "arrange");
        tf_say_int(&say, "seat", f->seat), tf_say_str(&say, "example", cards);
        tf_say_end(&say, "%s arranges the start regions: name the six for the places #1 to #6 in "
                   "order\n(row -1, then row +1, each from the left) by resource, region kind "
                   "or card, e.g.\n  arrange G O W L B Au, arrange fields mountains pasture "
                   "forest hills gold,\n  or arrange %s", who, cards);
        tf_buf_add(b, "\n");
        break;
    }
    case F_START_STACK:
        tf_say_begin(&say, b, flags, "start_stack");
        tf_say_int(&say, "seat", f->seat);
        tf_say_end(&say, "%s chooses a stack to take 3 start cards from: search K", who);
        tf_buf_add(b, "\n");
        break;
    case F_START_TAKE:
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE: {
        if (seat == f->seat) { /* the searcher alone sees the stack */
            tf_say_begin(&say, b, flags, "stack");
            tf_say_int(&say, "stack", f->a + 1);
            tf_say_end(&say, "Stack %d:", f->a + 1);
            for (int i = 0; i < s->stack_len[f->a]; i++)
                tf_buf_addf(b, " %s", ct_cards[s->stack[f->a][i]].code);
            tf_buf_add(b, "\n");
        }
        tf_say_begin(&say, b, flags, "take");
        tf_say_int(&say, "seat", f->seat), tf_say_int(&say, "stack", f->a + 1);
        tf_say_end(&say, "%s takes a card of stack %d", who, f->a + 1);
        tf_buf_add(b, "\n");
        break;
    }
    case F_PLACE_REGIONS: {
        const char *first = ct_region_cards[s->drawn_regions[0]].name;
        const char *second = ct_region_cards[s->drawn_regions[1]].name;
        tf_say_begin(&say, b, flags, "new_regions");
        tf_say_str(&say, "first", first), tf_say_str(&say, "second", second);
        tf_say_end(&say, "New regions: %s and %s: choose the one above (row -1)", first, second);
        tf_buf_add(b, "\n");
        break;
    }
    case F_OFFER: {
        char give[16], get[16]; /* notation: 2B */
        snprintf(give, sizeof give, "%d%s", s->offer[1], ct_res_codes[s->offer[0]]);
        snprintf(get, sizeof get, "%d%s", s->offer[3], ct_res_codes[s->offer[2]]);
        tf_say_begin(&say, b, flags, "offer");
        tf_say_int(&say, "seat", 1 - f->seat);
        tf_say_str(&say, "offer_give", give), tf_say_str(&say, "offer_get", get);
        tf_say_end(&say, "%s offers %s for %s: accept or decline", tf_seat_names[1 - f->seat],
                   give, get);
        tf_buf_add(b, "\n");
        break;
    }
    case F_COUNTER:
        tf_say_begin(&say, b, flags, "counter");
        tf_say_int(&say, "seat", f->seat), tf_say_str(&say, "card", ct_cards[f->a].code);
        tf_say_end(&say, "%s is attacked with %s: counter it or not", who, ct_cards[f->a].name);
        tf_buf_add(b, "\n");
        break;
    case F_DISCARD:
        tf_say_begin(&say, b, flags, "discard");
        tf_say_int(&say, "seat", f->seat), tf_say_int(&say, "count", f->a);
        tf_say_end(&say, "%s is over the hand limit: discard %d card(s) under stacks", who, f->a);
        tf_buf_add(b, "\n");
        break;
    case F_PICK_SITE:
        tf_say_begin(&say, b, flags, "pick");
        tf_say_int(&say, "seat", f->seat), tf_say_int(&say, "owner_seat", f->a);
        tf_say_end(&say, "%s picks a card of %s's to go back to hand: pick COL ROW", who,
                   tf_seat_names[f->a]);
        tf_buf_add(b, "\n");
        break;
    default: break;
    }
}

static const char key[] =
    "Key:\n"
    "  L W B O G Au  resources: lumber, wool, brick, ore, grain, gold\n"
    "  B6:1          a region: hills (B) produce on a 6 and hold 1 brick now (3 at most);\n"
    "                forest L, pasture W, hills B, mountains O, fields G, gold field Au\n"
    "  #1 .. #6      the places of the start regions, in the order 'arrange' names them\n"
    "  settlement road city  row 0: settlements and cities on even columns, roads and\n"
    "                regions on odd ones; columns and rows as in 'build abbey 0 -1'\n"
    "  .             a free building site (rows -2 and +2 only beside a city)\n"
    "  abbey         an expansion card built on a site, by its code\n"
    "  ?             a card you cannot see\n"
    "  (knight)      the knight token, 1 point: the most strength (knights)\n"
    "  (windmill)    the windmill, 1 point: a city and the most trade points\n"
    "  hand 2/3      cards in hand / the hand limit\n"
    "  tournament    the tournament face of the event die pays the most\n"
    "  Stacks 1:13   cards left in each of the stacks 1 to 5\n";

int ct_render(const void *data, int seat, int flags, tf_buf *b) {
    const ct_state *s = data;
    int top = seat == 1 ? 0 : 1, bottom = 1 - top; /* your own principality below */
    int frame = ct_frame_kind(s), focus = -1;
    /* inside a step of a turn (rolling included: the main phase that
    ** follows draws both): the principality the decision is about */
    if (!(flags & TAFEL_RENDER_WHOLE) && frame >= F_START_TAKE && frame <= F_NEGOTIATE &&
        frame != F_MAIN) {
        const ct_frame *f = &s->frame[s->nframes - 1];
        focus = frame == F_PICK_SITE ? f->a : f->seat;
    }
    render_header(b, s, flags);
    render_event(b, s, flags);
    render_last_builds(b, s, seat, flags);
    render_player(b, s, top, focus, flags);
    tf_say_text(b, flags, "stacks", "Stacks");
    for (int k = 0; k < CT_STACKS; k++) tf_buf_addf(b, " %d:%d", k + 1, s->stack_len[k]);
    tf_say say;
    tf_buf_add(b, "  ");
    tf_say_begin(&say, b, flags, "central");
    tf_say_int(&say, "regions", s->regions_len), tf_say_int(&say, "roads", s->roads_left);
    tf_say_int(&say, "settlements", s->settlements_left);
    tf_say_int(&say, "cities", s->cities_left);
    tf_say_end(&say, "regions %d  roads %d  settlements %d  cities %d", s->regions_len,
               s->roads_left, s->settlements_left, s->cities_left);
    tf_buf_add(b, "\n");
    render_player(b, s, bottom, focus, flags);
    tf_say_text(b, flags, "hands", "Hands:");
    for (int who = 0; who < 2; who++) {
        const ct_player *p = &s->p[who];
        tf_buf_add(b, who ? "; " : " ");
        say_seat(b, flags, who);
        for (int i = 0; i < p->hand_len; i++) {
            int visible = seat == who || (seat >= 0 && (p->hand_known >> i & 1));
            tf_buf_addf(b, " %s", visible ? ct_cards[p->hand[i]].code : "?");
        }
        if (!p->hand_len) tf_buf_add(b, " -");
    }
    tf_buf_add(b, "\n");
    render_prompt(b, s, seat, flags);
    if (s->over) {
        if (s->draw_game)
            tf_say_text(b, flags, "over_draw", "The game is over: a draw (turn limit).");
        else tf_say_text(b, flags, "over", "The game is over.");
        tf_buf_add(b, "\n");
    }
    if (flags & TAFEL_RENDER_KEY) tf_say_text(b, flags, "key", key);
    return b->oom ? TAFEL_ENOMEM : TAFEL_OK;
}

/* ---- resampling ------------------------------------------------------------------- */

/* The unseen cards are sorted before they are shuffled: their order in
** the state is exactly what the seat must not know, and the result has to
** depend on its view and the rng alone (a bot decides on it). */
static void shuffle(uint8_t *a, int n, uint64_t *rng) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            uint8_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
    for (int i = n - 1; i > 0; i--) {
        int j = (int)tafel_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

int ct_resample(void *data, int seat, uint64_t *rng) {
    ct_state *s = data;
    uint8_t cards[CT_EXPANSION_CARDS + CT_STACK_REGIONS];
    int n = 0, other = 1 - seat;
    /* expansion cards: the other hand's and the stacks' unknown slots */
    ct_player *o = &s->p[other];
    for (int i = 0; i < o->hand_len; i++)
        if (!(o->hand_known >> i & 1)) cards[n++] = o->hand[i];
    for (int k = 0; k < CT_STACKS; k++)
        for (int i = 0; i < s->stack_len[k]; i++)
            if (!(s->stack_known[k][i] >> seat & 1)) cards[n++] = s->stack[k][i];
    shuffle(cards, n, rng);
    n = 0;
    for (int i = 0; i < o->hand_len; i++)
        if (!(o->hand_known >> i & 1)) o->hand[i] = cards[n++];
    for (int k = 0; k < CT_STACKS; k++)
        for (int i = 0; i < s->stack_len[k]; i++)
            if (!(s->stack_known[k][i] >> seat & 1)) s->stack[k][i] = cards[n++];
    /* regions */
    n = 0;
    for (int i = 0; i < s->regions_len; i++)
        if (!(s->regions_known[i] >> seat & 1)) cards[n++] = s->regions[i];
    shuffle(cards, n, rng);
    n = 0;
    for (int i = 0; i < s->regions_len; i++)
        if (!(s->regions_known[i] >> seat & 1)) s->regions[i] = cards[n++];
    /* events */
    int events = ct_frame_kind(s) == F_DEAL_EVENTS ? s->dealt : CT_EVENT_CARDS;
    n = 0;
    for (int i = 0; i < events; i++)
        if (!(s->events_known[i] >> seat & 1)) cards[n++] = s->events[i];
    shuffle(cards, n, rng);
    n = 0;
    for (int i = 0; i < events; i++)
        if (!(s->events_known[i] >> seat & 1)) s->events[i] = cards[n++];
    return TAFEL_OK;
}

/* ---- invariants ----------------------------------------------------------------------- */

int ct_check(const void *data, tafel_error *err) {
    const ct_state *s = data;
    if (s->actor != ct_current(s))
        return tf_error(err, TAFEL_ESTATE, "the actor byte says %d, the frames %d", s->actor,
                        ct_current(s));
    if (s->declined > 3)
        return tf_error(err, TAFEL_ESTATE, "%d offers declined this turn, more than 3",
                        s->declined);
    if (s->offers < s->declined) /* an offer is declined after it is made */
        return tf_error(err, TAFEL_ESTATE, "%d offers declined this turn, %d made",
                        s->declined, s->offers);
    for (int seat = 0; seat < 2; seat++) {
        int a = s->last_build[seat];
        if (a != -1 && !(a >= A_PLAY && a < A_TRADE) && !(a >= A_ROAD && a < A_DRAW))
            return tf_error(err, TAFEL_ESTATE, "seat %d's last build is action %d", seat, a);
        if (a != -1 && (s->last_build_turn[seat] < 1 || s->last_build_turn[seat] > s->turn))
            return tf_error(err, TAFEL_ESTATE, "seat %d's last build was in turn %d of %d",
                            seat, s->last_build_turn[seat], s->turn);
    }
    int count[CT_CARD_TYPES] = {0};
    for (int t = 0; t < CT_CARD_TYPES; t++) count[t] = s->pool[t] + s->played_out[t];
    for (int k = 0; k < CT_STACKS; k++)
        for (int i = 0; i < s->stack_len[k]; i++) count[s->stack[k][i]]++;
    for (int seat = 0; seat < 2; seat++) {
        const ct_player *p = &s->p[seat];
        if (p->hand_len > 16) return tf_error(err, TAFEL_ESTATE, "seat %d holds too many cards", seat);
        for (int i = 0; i < p->hand_len; i++) count[p->hand[i]]++;
        for (int c = 0; c < CT_COLS; c++)
            for (int r = 0; r < CT_SITE_ROWS; r++) {
                if (p->site[c][r] == CT_NONE) continue;
                if (!ct_site_exists(s, seat, c, r))
                    return tf_error(err, TAFEL_ESTATE, "seat %d: a card on no site", seat);
                count[p->site[c][r]]++;
            }
        for (int c = 0; c < CT_COLS; c++)
            for (int r = 0; r < 2; r++)
                if (p->region[c][r].stock > 3)
                    return tf_error(err, TAFEL_ESTATE, "seat %d: a region holds more than 3", seat);
    }
    for (int t = 0; t < CT_CARD_TYPES; t++)
        if (count[t] != ct_cards[t].count)
            return tf_error(err, TAFEL_ESTATE, "%d %s cards are accounted for, not %d", count[t],
                            ct_cards[t].code, ct_cards[t].count);
    ct_state fresh = *s; /* the derived counts and points, recounted */
    ct_refresh(&fresh);
    if (memcmp(&fresh, s, sizeof fresh))
        return tf_error(err, TAFEL_ESTATE, "the derived counts or points are stale");
    return TAFEL_OK;
}
