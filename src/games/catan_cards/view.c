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
    tf_buf_add(b, "]}");
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

static void render_principality(tf_buf *b, const ct_state *s, int who) {
    const ct_player *p = &s->p[who];
    static const char *const row_label[5] = {"-2", "-1", " 0", "+1", "+2"};
    tf_buf_addf(b, "%s's principality (%d points):\n     ", tf_seat_names[who], ct_vp(s, who));
    for (int c = p->left - 1; c <= p->right + 1; c++) tf_buf_addf(b, "%-12d", c - CT_COL0);
    tf_buf_add(b, "\n");
    /* rows from -2 down to +2: "above" (a new settlement's region) is row -1;
    ** regions at rows +-1 on odd columns */
    for (int line = 0; line < 5; line++) {
        int row = line - 2;
        tf_buf_addf(b, "  %s ", row_label[line]);
        for (int c = p->left - 1; c <= p->right + 1; c++) {
            char cell[40] = "";
            int even = (c - CT_COL0) % 2 == 0;
            if (row == 0) {
                if (p->centre[c] != CT_EMPTY) snprintf(cell, sizeof cell, "[%s]", centre_names[p->centre[c]]);
            } else if (!even && (row == 1 || row == -1)) {
                const ct_region *g = &p->region[c][row > 0];
                if (g->card != CT_NONE) {
                    const ct_region_card *rc = &ct_region_cards[g->card];
                    snprintf(cell, sizeof cell, "%s%d:%d%s", ct_res_codes[rc->kind], rc->number,
                             g->stock, "");
                }
            } else if (even) {
                int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
                if (p->site[c][ri] != CT_NONE) snprintf(cell, sizeof cell, "%.11s", ct_cards[p->site[c][ri]].code);
                else if (ct_site_exists(s, who, c, ri)) snprintf(cell, sizeof cell, ".");
            }
            tf_buf_addf(b, "%-12s", cell);
        }
        tf_buf_add(b, "\n");
    }
    tf_buf_addf(b, "  resources:");
    for (int r = 0; r < CT_RES; r++) tf_buf_addf(b, " %s %d", ct_res_codes[r], ct_stock(s, who, r));
    tf_buf_addf(b, "  strength %d  tournament %d  trade %d  hand %d/%d\n", ct_strength(s, who),
                ct_tournament(s, who), ct_trade_points(s, who), p->hand_len, ct_hand_limit(s, who));
}

/* What the decision on top is about, in words. */
static void render_prompt(tf_buf *b, const ct_state *s, int seat) {
    if (s->over || !s->nframes) return;
    const ct_frame *f = &s->frame[s->nframes - 1];
    const char *who = tf_seat_names[f->seat];
    switch (f->kind) {
    case F_ARRANGE:
        tf_buf_addf(b, "%s arranges the start regions: 'arrange' and the resources for the "
                    "positions (-1,-1) (1,-1) (3,-1) (-1,+1) (1,+1) (3,+1), e.g. arrange G O W L B Au\n", who);
        break;
    case F_START_STACK: tf_buf_addf(b, "%s chooses a stack to take 3 start cards from: search K\n", who); break;
    case F_START_TAKE:
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE: {
        if (seat == f->seat) { /* the searcher alone sees the stack */
            tf_buf_addf(b, "Stack %d:", f->a + 1);
            for (int i = 0; i < s->stack_len[f->a]; i++)
                tf_buf_addf(b, " %s", ct_cards[s->stack[f->a][i]].code);
            tf_buf_add(b, "\n");
        }
        tf_buf_addf(b, "%s takes a card of stack %d\n", who, f->a + 1);
        break;
    }
    case F_PLACE_REGIONS:
        tf_buf_addf(b, "New regions: %s and %s: choose the one above (row -1)\n",
                    ct_region_cards[s->drawn_regions[0]].name, ct_region_cards[s->drawn_regions[1]].name);
        break;
    case F_OFFER:
        tf_buf_addf(b, "%s offers %d%s for %d%s: accept or decline\n", tf_seat_names[1 - f->seat],
                    s->offer[1], ct_res_codes[s->offer[0]], s->offer[3], ct_res_codes[s->offer[2]]);
        break;
    case F_COUNTER:
        tf_buf_addf(b, "%s is attacked with %s: counter it or not\n", who, ct_cards[f->a].name);
        break;
    case F_DISCARD: tf_buf_addf(b, "%s is over the hand limit: discard %d card(s) under stacks\n", who, f->a); break;
    case F_PICK_SITE: tf_buf_addf(b, "%s picks a card of %s's to go back to hand: pick COL ROW\n", who, tf_seat_names[f->a]); break;
    default: break;
    }
}

int ct_render(const void *data, int seat, int flags, tf_buf *b) {
    const ct_state *s = data;
    (void)flags;
    int top = seat == 1 ? 0 : 1, bottom = 1 - top; /* your own principality below */
    tf_buf_addf(b, "Catan card game, turn %d (%s), die %d, event %s\n", s->turn,
                tf_seat_names[s->active], s->die, s->turn ? ct_face_codes[s->face] : "-");
    render_principality(b, s, top);
    tf_buf_addf(b, "Stacks:");
    for (int k = 0; k < CT_STACKS; k++) tf_buf_addf(b, " %d:%d", k + 1, s->stack_len[k]);
    tf_buf_addf(b, "  regions %d  roads %d settlements %d cities %d  knight %s  windmill %s\n",
                s->regions_len, s->roads_left, s->settlements_left, s->cities_left,
                s->knight_token >= 0 ? tf_seat_names[s->knight_token] : "-",
                s->windmill >= 0 ? tf_seat_names[s->windmill] : "-");
    render_principality(b, s, bottom);
    for (int who = 0; who < 2; who++) {
        const ct_player *p = &s->p[who];
        tf_buf_addf(b, "%s's hand:", tf_seat_names[who]);
        for (int i = 0; i < p->hand_len; i++) {
            int visible = seat == who || (seat >= 0 && (p->hand_known >> i & 1));
            tf_buf_addf(b, " %s", visible ? ct_cards[p->hand[i]].code : "?");
        }
        tf_buf_add(b, p->hand_len ? "\n" : " empty\n");
    }
    render_prompt(b, s, seat);
    if (s->over) tf_buf_add(b, s->draw_game ? "The game is over: a draw (turn limit).\n" : "The game is over.\n");
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
