/*
** account.c -- what an action did, as events (docs/events-catan_cards.md):
** the module's describe hook.
**
** The action is played on a copy one step at a time (game.c: ct_walk, the
** action, then each automatic frame or skipped decision), and each step
** is told from the states before and after it: the frame that ran says what
** happened, the differences say how much and to whom (resources on
** regions, cards, tokens, points).  The engine reports nothing itself, so
** apply and random play do no extra work.
**
** Hidden information: a card is named only where the seat sees it after
** the step (its own hand, a card of the other hand it knows, a stack slot
** it knows, anything on the table or played), else "?".  Everything else
** told (resources, regions, dice, counts of cards) is public.
**
** Points: a step's change of the principalities' own points goes on the
** event that caused it (a build, a card sent back to hand), a token's on
** the token's event, so the points of an account are exactly the change of
** the scores (which start at 2 and can fall).
*/
#include "catan.h"

#include <string.h>

#define CT_KINDS(X)                                                                         \
    X(CARD_DEALT, "card_dealt") X(REGION_DEALT, "region_dealt")                             \
    X(EVENT_CARD_DEALT, "event_card_dealt") X(REGIONS_ARRANGED, "regions_arranged")          \
    X(START_STACK, "start_stack_chosen") X(CARD_TAKEN, "card_taken")                        \
    X(TURN_STARTED, "turn_started") X(ROLL, "roll") X(ALCHEMIST, "alchemist_played")         \
    X(PRODUCTION_DIE, "production_die") X(EVENT_DIE, "event_die")                           \
    X(PRODUCTION, "production") X(PRODUCTION_LOST, "production_lost")                       \
    X(TOURNAMENT_WON, "tournament_won") X(TOURNAMENT_TIED, "tournament_tied")               \
    X(TRADE_ADVANTAGE, "trade_advantage") X(NO_TRADE_ADVANTAGE, "no_trade_advantage")       \
    X(BRIGANDS_RAID, "brigands_raid") X(BRIGANDS_SPARE, "brigands_spare")                   \
    X(BRIGAND_LOSS, "brigand_loss") X(EVENT_CARD, "event_card")                             \
    X(CONFLICT, "conflict") X(CONFLICT_NO_HOLDER, "conflict_no_holder")                     \
    X(PLAGUE_LOSS, "plague_loss") X(GARRISON_GAIN, "garrison_gain")                         \
    X(GARRISON_LOST, "garrison_lost") X(PROGRESS, "progress")                               \
    X(ATTACK_SUCCEEDED, "attack_succeeded") X(ATTACK_BACKFIRED, "attack_backfired")         \
    X(RESOURCE_GAINED, "resource_gained") X(NO_ROOM, "no_room")                             \
    X(RESOURCE_TAKEN, "resource_taken") X(NOTHING_TO_TAKE, "nothing_to_take")               \
    X(RESOURCE_GIVEN, "resource_given") X(NOTHING_TO_GIVE, "nothing_to_give")               \
    X(MERCHANT_DONE, "merchant_done") X(MAIN_ENDED, "main_phase_ended")                     \
    X(BANK_OPENED, "bank_opened") X(NEGOTIATION_OPENED, "negotiation_opened")               \
    X(CARD_PLAYED, "card_played") X(HAND_SEEN, "hand_seen") X(ROAD_BUILT, "road_built")      \
    X(SETTLEMENT_BUILT, "settlement_built") X(REGION_DRAWN, "region_drawn")                 \
    X(CITY_BUILT, "city_built") X(EXPANSION_BUILT, "expansion_built")                       \
    X(BANK_TRADE, "bank_trade") X(OFFER_MADE, "offer_made")                                 \
    X(OFFER_ACCEPTED, "offer_accepted") X(OFFER_DECLINED, "offer_declined")                 \
    X(RESOURCE_LOST, "resource_lost")                                                       \
    X(REGION_PLACED, "region_placed") X(REGION_CHOSEN, "region_chosen")                     \
    X(REFILL_ENDED, "refill_ended") X(CARD_DRAWN, "card_drawn")                             \
    X(SEARCH_BEGUN, "search_begun") X(SEARCH_PAID, "search_paid")                           \
    X(CARD_EXCHANGED, "card_exchanged") X(CARD_DISCARDED, "card_discarded")                 \
    X(OVER_HAND_LIMIT, "over_hand_limit") X(EMPTY_HAND, "empty_hand")                       \
    X(COUNTER_PLAYED, "counter_played") X(NO_COUNTER, "no_counter")                         \
    X(CARD_RETURNED, "card_returned") X(NOTHING_TO_PICK, "nothing_to_pick")                 \
    X(CARAVAN_SWAP, "caravan_swap") X(CARAVAN_DONE, "caravan_done")                         \
    X(CARD_STOLEN, "card_stolen") X(SPY_DONE, "spy_done")                                   \
    X(CARD_PUT_UNDER, "card_put_under") X(MASTER_SEARCH, "master_search")                   \
    X(MASTER_PASS, "master_pass") X(CARD_PUT_BACK, "card_put_back")                         \
    X(ADVANTAGE_GAINED, "advantage_gained") X(ADVANTAGE_TAKEN, "advantage_taken")           \
    X(ADVANTAGE_SET_ASIDE, "advantage_set_aside") X(GAME_OVER, "game_over")

#define KIND_ENUM(id, name) K_##id,
#define KIND_NAME(id, name) name,
enum { CT_KINDS(KIND_ENUM) K_COUNT };
const char *const ct_account_kinds[] = {CT_KINDS(KIND_NAME)};
const int ct_account_kind_count = K_COUNT;

typedef struct teller {
    tf_events *ev;
    int viewer; /* ev->seat */
    int vp[2];  /* the step's change of the principalities' points, not yet told */
} teller;

/* ---- fields ----------------------------------------------------------------- */

static void begin(teller *t, int kind, int seat) {
    tf_event_begin(t->ev, ct_account_kinds[kind]);
    if (seat >= 0) tf_event_int(t->ev, "seat", seat);
}

static void num(teller *t, const char *field, int value) { tf_event_int(t->ev, field, value); }
static void str(teller *t, const char *field, const char *value) {
    tf_event_str(t->ev, field, value);
}
static void resource(teller *t, const char *field, int res) { str(t, field, ct_res_names[res]); }

static void card(teller *t, int type, int seen) {
    str(t, "card", seen ? ct_cards[type].code : "?");
}

/* The step's points on the event being written, once. */
static void points(teller *t) {
    if (!t->vp[0] && !t->vp[1]) return;
    tf_event_points(t->ev, t->vp);
    t->vp[0] = t->vp[1] = 0;
}

/* A region card where it lies: its kind, number and place. */
static void region_at(teller *t, const ct_player *p, int col, int r) {
    const ct_region_card *rc = &ct_region_cards[p->region[col][r].card];
    str(t, "region", ct_region_names[rc->kind]);
    num(t, "number", rc->number);
    num(t, "col", col - CT_COL0);
    num(t, "row", r ? 1 : -1);
}

/* Where a settlement or city lies, as a player says it: by the two regions
** above it, left and right ("the settlement by Forest (4) and Hills (5)";
** every settlement has a region on each side, rules §2). */
static void settlement_by(teller *t, const ct_player *p, int col) {
    const ct_region_card *left = &ct_region_cards[p->region[col - 1][0].card];
    const ct_region_card *right = &ct_region_cards[p->region[col + 1][0].card];
    str(t, "region", ct_region_names[left->kind]);
    num(t, "number", left->number);
    str(t, "next_region", ct_region_names[right->kind]);
    num(t, "next_number", right->number);
}

/* An expansion site in words: above or below the settlement or city of its
** column (its "spot"), and the regions beside that; col and row stay, for
** the board and the notation. */
static void site_at(teller *t, const ct_player *p, int site) {
    int col = site / CT_SITE_ROWS, row = ct_site_row(site % CT_SITE_ROWS);
    static const char *const spots[2][2] = {{"above_settlement", "below_settlement"},
                                            {"above_city", "below_city"}};
    str(t, "spot", spots[p->centre[col] == CT_CITY][row > 0]);
    settlement_by(t, p, col);
    num(t, "col", col - CT_COL0);
    num(t, "row", row);
}

static void region_card(teller *t, int id) {
    str(t, "region", ct_region_names[ct_region_cards[id].kind]);
    num(t, "number", ct_region_cards[id].number);
}

/* ---- what a seat sees of a card ----------------------------------------------- */

static int sees_hand(const teller *t, const ct_state *s, int owner, int slot) {
    return t->viewer == owner || (t->viewer >= 0 && (s->p[owner].hand_known >> slot & 1));
}

/* The card that came last into owner's hand. */
static void card_into_hand(teller *t, const ct_state *a, int owner) {
    int slot = a->p[owner].hand_len - 1;
    card(t, a->p[owner].hand[slot], sees_hand(t, a, owner, slot));
}

/* The card that went under stack k (its bottom). */
static void card_under(teller *t, const ct_state *a, int k) {
    int slot = a->stack_len[k] - 1;
    card(t, a->stack[k][slot], t->viewer >= 0 && (a->stack_known[k][slot] >> t->viewer & 1));
    num(t, "stack", k + 1);
}

/* ---- regions ------------------------------------------------------------------ */

/* What a region should have gained in a step (production; a Productive
** year: ct_garrisons_beside), to tell what the limit of 3 cost. */
typedef int (*gain_rule)(const ct_state *b, int seat, int col, int r);

static int produced(const ct_state *b, int seat, int col, int r) {
    const ct_player *p = &b->p[seat];
    for (int i = 0; i < p->die_n[b->die]; i++) {
        int at = p->die_at[b->die][i];
        if ((at & ~CT_DOUBLED) == col * 2 + r) return at & CT_DOUBLED ? 2 : 1;
    }
    return 0;
}

/* Each region of seat whose stock changed from b to a, as an event of kind
** with the change as count; with rule, what it could not hold as lost. */
static void tell_regions(teller *t, const ct_state *b, const ct_state *a, int seat, int kind,
                         gain_rule rule, int lost_kind) {
    const ct_player *p = &a->p[seat];
    for (int c = p->left - 1; c <= p->right + 1; c++)
        for (int r = 0; r < 2; r++) {
            if (p->region[c][r].card == CT_NONE) continue;
            int change = p->region[c][r].stock - b->p[seat].region[c][r].stock;
            int lost = rule ? rule(b, seat, c, r) - change : 0;
            int res = ct_region_cards[p->region[c][r].card].kind;
            if (change) {
                begin(t, kind, seat);
                region_at(t, p, c, r);
                resource(t, "resource", res);
                num(t, "count", change < 0 ? -change : change);
            }
            if (lost > 0) {
                begin(t, lost_kind, seat);
                region_at(t, p, c, r);
                resource(t, "resource", res);
                num(t, "count", lost);
            }
        }
}

/* The brigand attack (rules: the event die) strikes a player holding more
** than 7 resources outside the regions his Garrisons protect. */
static void tell_brigands(teller *t, const ct_state *b, const ct_state *a) {
    for (int seat = 0; seat < 2; seat++) {
        const ct_player *p = &b->p[seat];
        int counted = 0;
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++)
                if (p->region[c][r].card != CT_NONE && !ct_protected(b, seat, c, r))
                    counted += p->region[c][r].stock;
        begin(t, counted > 7 ? K_BRIGANDS_RAID : K_BRIGANDS_SPARE, seat);
        num(t, "resources", counted);
        tell_regions(t, b, a, seat, K_BRIGAND_LOSS, NULL, 0);
    }
}

/* ---- the decision or chance action ------------------------------------------------ */

/* An offer's terms, always as the offerer gives and gets. */
static void tell_offer(teller *t, int kind, int seat, const ct_state *s) {
    begin(t, kind, seat);
    num(t, "other_seat", 1 - seat);
    resource(t, "give", s->offer[0]);
    num(t, "give_count", s->offer[1]);
    resource(t, "get", s->offer[2]);
    num(t, "get_count", s->offer[3]);
}

/* What an accepted offer, a resource taken or given brought seat beyond
** the room of its regions of res: lost.  Bank trades and Caravan swaps go
** only where there is room (docs/rules/catan_cards.md); these may not. */
static void tell_lost(teller *t, const ct_state *b, const ct_state *a, int seat, int res,
                            int n) {
    int lost = ct_stock(b, seat, res) + n - ct_stock(a, seat, res);
    if (lost <= 0) return;
    begin(t, K_RESOURCE_LOST, seat);
    resource(t, "resource", res);
    num(t, "count", lost);
}

static void tell_arrangement(teller *t, const ct_state *a, int seat) {
    const char *regions[6];
    for (int pos = 0; pos < 6; pos++) {
        int col = CT_COL0 - 1 + 2 * (pos % 3), row = pos / 3;
        regions[pos] = ct_region_names[ct_region_cards[a->p[seat].region[col][row].card].kind];
    }
    begin(t, K_REGIONS_ARRANGED, seat);
    tf_event_strs(t->ev, "regions", regions, 6);
}

static void tell_search(teller *t, const ct_state *a, int seat, int k) {
    begin(t, K_SEARCH_BEGUN, seat);
    num(t, "stack", k + 1);
    num(t, "cost", a->frame[a->nframes - 1].b);
}

static void tell_draw(teller *t, const ct_state *a, int seat, int k) {
    begin(t, K_CARD_DRAWN, seat);
    num(t, "stack", k + 1);
    card_into_hand(t, a, seat);
}

static void tell_main(teller *t, const ct_state *a, int seat, tafel_action x) {
    const ct_player *p = &a->p[seat];
    if (x == A_PASS) {
        begin(t, K_MAIN_ENDED, seat);
    } else if (x == A_BANK || x == A_NEGOTIATE) {
        begin(t, x == A_BANK ? K_BANK_OPENED : K_NEGOTIATION_OPENED, seat);
    } else if (x >= A_PLAY && x < A_TRADE) {
        begin(t, K_CARD_PLAYED, seat);
        card(t, x - A_PLAY, 1);
        if (x - A_PLAY == CT_SPY) {
            begin(t, K_HAND_SEEN, seat);
            num(t, "other_seat", 1 - seat);
            num(t, "count", a->p[1 - seat].hand_len);
        }
    } else if (x >= A_ROAD && x < A_SETTLE) {
        begin(t, K_ROAD_BUILT, seat);
        str(t, "side", x - A_ROAD ? "right" : "left");
        num(t, "col", (x - A_ROAD ? p->right : p->left) - CT_COL0);
    } else if (x >= A_SETTLE && x < A_CITY) {
        int side = (x - A_SETTLE) & 1, scout = (x - A_SETTLE) >> 1;
        begin(t, K_SETTLEMENT_BUILT, seat);
        str(t, "side", side ? "right" : "left");
        num(t, "col", (side ? p->right : p->left) - CT_COL0);
        points(t);
        if (scout) {
            begin(t, K_CARD_PLAYED, seat);
            card(t, CT_SCOUT, 1);
        } else if (!a->over) { /* a settlement that wins places no regions: none shown */
            for (int i = 0; i < 2; i++) {
                begin(t, K_REGION_DRAWN, seat);
                region_card(t, a->drawn_regions[i]);
            }
        }
    } else if (x >= A_CITY && x < A_BUILD) {
        begin(t, K_CITY_BUILT, seat);
        settlement_by(t, p, x - A_CITY);
        num(t, "col", x - A_CITY - CT_COL0);
        points(t);
    } else {
        int type = (x - A_BUILD) / CT_SITES, site = (x - A_BUILD) % CT_SITES;
        begin(t, K_EXPANSION_BUILT, seat);
        card(t, type, 1);
        site_at(t, p, site);
        points(t);
    }
}

/* Cards and stacks: taking, drawing, searching, putting under. */
static int tell_cards(teller *t, const ct_frame *f, const ct_state *a, tafel_action x) {
    int seat = f->seat, under_k = (x - A_UNDER) % CT_STACKS;
    switch (f->kind) {
    case F_START_STACK:
        begin(t, K_START_STACK, seat);
        num(t, "stack", x - A_SEARCH + 1);
        return 1;
    case F_START_TAKE:
    case F_SEARCH_TAKE:
    case F_MASTER_TAKE:
        begin(t, K_CARD_TAKEN, seat);
        num(t, "stack", f->a + 1);
        card_into_hand(t, a, seat);
        return 1;
    case F_REFILL:
    case F_EXCHANGE_TAKE: /* a draw, a search, or the first half of an exchange */
        if (x == A_PASS) {
            begin(t, K_REFILL_ENDED, seat);
        } else if (x >= A_DRAW && x < A_UNDER) {
            tell_draw(t, a, seat, x - A_DRAW);
        } else if (x >= A_SEARCH && x < A_TAKE) {
            tell_search(t, a, seat, x - A_SEARCH);
        } else {
            begin(t, K_CARD_EXCHANGED, seat);
            card_under(t, a, under_k);
        }
        return 1;
    case F_DISCARD:
    case F_MASTER_PUT:
        begin(t, f->kind == F_DISCARD ? K_CARD_DISCARDED : K_CARD_PUT_BACK, seat);
        card_under(t, a, under_k);
        return 1;
    case F_CONFLICT_PICK:
        begin(t, K_CARD_PUT_UNDER, seat);
        num(t, "other_seat", 1 - seat);
        card_under(t, a, under_k);
        return 1;
    case F_MASTER_SEARCH:
        begin(t, x == A_PASS ? K_MASTER_PASS : K_MASTER_SEARCH, seat);
        if (x != A_PASS) num(t, "stack", x - A_SEARCH + 1);
        return 1;
    case F_SPY_TAKE:
        begin(t, x == A_PASS ? K_SPY_DONE : K_CARD_STOLEN, seat);
        if (x != A_PASS) {
            num(t, "other_seat", 1 - seat);
            card_into_hand(t, a, seat);
        }
        return 1;
    default: return 0;
    }
}

/* Resources: gaining, taking, giving, paying, trading. */
static int tell_resources(teller *t, const ct_frame *f, const ct_state *b, const ct_state *a,
                          tafel_action x) {
    int seat = f->seat, res = x - A_RES;
    int give = (x - A_TRADE) / CT_RES, get = (x - A_TRADE) % CT_RES;
    switch (f->kind) {
    case F_GAIN:
        begin(t, K_RESOURCE_GAINED, seat);
        resource(t, "resource", res);
        return 1;
    case F_TAKE:
    case F_MERCHANT_TAKE:
        begin(t, x == A_PASS ? K_MERCHANT_DONE : K_RESOURCE_TAKEN, seat);
        if (x == A_PASS) return 1;
        num(t, "other_seat", 1 - seat);
        resource(t, "resource", res);
        tell_lost(t, b, a, seat, res, 1);
        return 1;
    case F_MERCHANT_GIVE:
        begin(t, K_RESOURCE_GIVEN, seat);
        num(t, "other_seat", 1 - seat);
        resource(t, "resource", res);
        tell_lost(t, b, a, 1 - seat, res, 1);
        return 1;
    case F_PAY_SEARCH:
        begin(t, K_SEARCH_PAID, seat);
        resource(t, "resource", res);
        num(t, "stack", f->a + 1);
        return 1;
    case F_BANK:
        begin(t, K_BANK_TRADE, seat);
        resource(t, "give", give);
        num(t, "rate", ct_trade_rate(b, seat, give));
        resource(t, "get", get);
        return 1;
    case F_CARAVAN:
        begin(t, x == A_PASS ? K_CARAVAN_DONE : K_CARAVAN_SWAP, seat);
        if (x == A_PASS) return 1;
        resource(t, "give", give);
        resource(t, "get", get);
        return 1;
    case F_NEGOTIATE: tell_offer(t, K_OFFER_MADE, seat, a); return 1;
    case F_OFFER:
        if (x == A_ACCEPT) { /* the offerer gives offer[0] and gets offer[2] */
            tell_offer(t, K_OFFER_ACCEPTED, seat, b);
            tell_lost(t, b, a, seat, b->offer[0], b->offer[1]);
            tell_lost(t, b, a, 1 - seat, b->offer[2], b->offer[3]);
        } else {
            begin(t, K_OFFER_DECLINED, seat);
            num(t, "other_seat", 1 - seat);
            num(t, "declined", a->declined);
        }
        return 1;
    default: return 0;
    }
}

/* Regions placed or chosen for a new settlement. */
static void tell_placement(teller *t, const ct_state *a, int seat) {
    static const char *const places[2][2] = {{"top_left", "bottom_left"},
                                             {"top_right", "bottom_right"}};
    for (int r = 0; r < 2; r++) {
        begin(t, K_REGION_PLACED, seat);
        /* the new regions lie beyond the new settlement, at an end: left of
        ** the start road (column 1) or right of it */
        str(t, "place", places[a->new_col > CT_COL0 + 1][r]);
        region_at(t, &a->p[seat], a->new_col, r);
    }
}

static void tell_action(teller *t, const ct_state *b, const ct_state *a, tafel_action x) {
    const ct_frame *f = &b->frame[b->nframes - 1];
    int seat = f->seat;
    if (tell_cards(t, f, a, x) || tell_resources(t, f, b, a, x)) return;
    switch (f->kind) {
    case F_DEAL_STACKS:
        for (int k = 0; k < CT_STACKS; k++)
            if (a->stack_len[k] != b->stack_len[k]) {
                begin(t, K_CARD_DEALT, -1);
                num(t, "stack", k + 1);
            }
        break;
    case F_DEAL_REGIONS: begin(t, K_REGION_DEALT, -1); break;
    case F_DEAL_EVENTS: begin(t, K_EVENT_CARD_DEALT, -1); break;
    case F_DIE:
        begin(t, K_PRODUCTION_DIE, b->active);
        num(t, "number", a->die);
        break;
    case F_EVENT_DIE:
        begin(t, K_EVENT_DIE, b->active);
        str(t, "face", ct_face_codes[a->face]);
        break;
    case F_DUEL: break; /* the duel's outcome, the next step, says the roll */
    case F_ARRANGE: tell_arrangement(t, a, seat); break;
    case F_ROLL:
        begin(t, x == A_ROLL ? K_ROLL : K_ALCHEMIST, seat);
        if (x != A_ROLL) num(t, "number", a->die);
        break;
    case F_MAIN: tell_main(t, a, seat, x); break;
    case F_PLACE_REGIONS: tell_placement(t, a, seat); break;
    case F_SCOUT_PICK:
        begin(t, K_REGION_CHOSEN, seat);
        region_card(t, x - A_REGION_CARD);
        break;
    case F_COUNTER:
        begin(t, x == A_PASS ? K_NO_COUNTER : K_COUNTER_PLAYED, seat);
        card(t, x == A_PASS ? f->a : x - A_PLAY, 1);
        break;
    case F_PICK_SITE: {
        int site = x - A_SITE;
        begin(t, K_CARD_RETURNED, f->a);
        num(t, "picker_seat", seat);
        card(t, b->p[f->a].site[site / CT_SITE_ROWS][site % CT_SITE_ROWS], 1);
        site_at(t, &b->p[f->a], site);
        points(t);
        break;
    }
    }
}

/* ---- the automatic steps -------------------------------------------------------- */

static void tell_event_die(teller *t, const ct_state *b, const ct_state *a) {
    switch (b->face) {
    case CT_DIE_TOURNAMENT: {
        int totals[2] = {ct_tournament(b, 0), ct_tournament(b, 1)};
        if (totals[0] == totals[1]) begin(t, K_TOURNAMENT_TIED, -1);
        else begin(t, K_TOURNAMENT_WON, totals[1] > totals[0]);
        tf_event_ints(t->ev, "totals_by_seat", totals, 2);
        break;
    }
    case CT_DIE_TRADE:
        if (b->windmill < 0) {
            begin(t, K_NO_TRADE_ADVANTAGE, -1);
            break;
        }
        begin(t, K_TRADE_ADVANTAGE, b->windmill);
        num(t, "other_seat", 1 - b->windmill);
        break;
    case CT_DIE_BRIGAND: tell_brigands(t, b, a); break;
    default: break; /* good year: the gains follow; event: the card */
    }
}

static void tell_event_card(teller *t, const ct_state *b, const ct_state *a) {
    int e = b->events[0], act = b->active;
    begin(t, K_EVENT_CARD, act);
    str(t, "event_card", ct_event_codes[e]);
    switch (e) {
    case CT_EV_CONFLICT:
        if (b->knight_token < 0) {
            begin(t, K_CONFLICT_NO_HOLDER, -1);
            break;
        }
        begin(t, K_CONFLICT, b->knight_token);
        num(t, "other_seat", 1 - b->knight_token);
        num(t, "count", b->p[1 - b->knight_token].hand_len);
        break;
    case CT_EV_PLAGUE:
        for (int seat = 0; seat < 2; seat++) tell_regions(t, b, a, seat, K_PLAGUE_LOSS, NULL, 0);
        break;
    case CT_EV_PRODUCTIVE_YEAR:
        for (int seat = 0; seat < 2; seat++)
            tell_regions(t, b, a, seat, K_GARRISON_GAIN, ct_garrisons_beside, K_GARRISON_LOST);
        break;
    case CT_EV_PROGRESS:
        for (int i = 0; i < 2; i++) {
            int seat = i ? 1 - act : act;
            int n = ct_count_type(b, seat, CT_ABBEY) + ct_count_type(b, seat, CT_LIBRARY);
            if (!n) continue;
            begin(t, K_PROGRESS, seat);
            num(t, "count", n);
        }
        break;
    default: break; /* their decisions follow (Year end: the deal) */
    }
}

/* A decision with nothing to decide, skipped (game.c: empty_decision). */
static void tell_skipped(teller *t, const ct_frame *f) {
    int seat = f->seat;
    switch (f->kind) {
    case F_GAIN:
        begin(t, K_NO_ROOM, seat);
        num(t, "count", f->a);
        break;
    case F_TAKE:
    case F_MERCHANT_GIVE:
        begin(t, f->kind == F_TAKE ? K_NOTHING_TO_TAKE : K_NOTHING_TO_GIVE, seat);
        num(t, "other_seat", 1 - seat);
        break;
    case F_PICK_SITE:
        begin(t, K_NOTHING_TO_PICK, seat);
        num(t, "other_seat", f->a);
        break;
    case F_DISCARD:
    case F_MASTER_PUT: begin(t, K_EMPTY_HAND, seat); break;
    case F_CONFLICT_PICK: begin(t, K_EMPTY_HAND, 1 - seat); break; /* the other's hand */
    default: break; /* the others are never empty when pushed */
    }
}

static void tell_step(teller *t, const ct_state *b, const ct_state *a) {
    const ct_frame *f = &b->frame[b->nframes - 1];
    switch (f->kind) {
    case F_TURN:
        if (a->turn == b->turn) break; /* the turn limit: the game is over */
        begin(t, K_TURN_STARTED, a->active);
        num(t, "turn", a->turn);
        break;
    case F_EVENT: tell_event_die(t, b, a); break;
    case F_PRODUCTION:
        for (int seat = 0; seat < 2; seat++)
            tell_regions(t, b, a, seat, K_PRODUCTION, produced, K_PRODUCTION_LOST);
        break;
    case F_EVENT_CARD: tell_event_card(t, b, a); break;
    case F_LIMIT:
        if (a->nframes < b->nframes) break; /* within the limit */
        begin(t, K_OVER_HAND_LIMIT, f->seat);
        num(t, "count", a->frame[a->nframes - 1].a);
        num(t, "limit", ct_hand_limit(b, f->seat));
        break;
    case F_DUEL_RESULT: {
        int countered = f->b, success = countered ? b->duel <= 2 : b->duel <= 5;
        begin(t, success ? K_ATTACK_SUCCEEDED : K_ATTACK_BACKFIRED, f->seat);
        num(t, "other_seat", 1 - f->seat);
        card(t, f->a, 1);
        num(t, "number", b->duel);
        break;
    }
    default: tell_skipped(t, f); break;
    }
}

/* ---- tokens, points, the end ------------------------------------------------------ */

/* Rules §5: a token (an advantage, 1 point) goes to strictly more. */
static void tell_token(teller *t, const char *advantage, int before, int after,
                       const int totals[2]) {
    if (before == after) return;
    int pts[2] = {0, 0};
    if (before >= 0) pts[before] = -1;
    if (after >= 0) pts[after] = 1;
    if (after < 0) begin(t, K_ADVANTAGE_SET_ASIDE, before);
    else begin(t, before < 0 ? K_ADVANTAGE_GAINED : K_ADVANTAGE_TAKEN, after);
    if (after >= 0 && before >= 0) num(t, "other_seat", before);
    str(t, "advantage", advantage);
    tf_event_ints(t->ev, "totals_by_seat", totals, 2);
    tf_event_points(t->ev, pts);
}

static void tell_changes(teller *t, const ct_state *b, const ct_state *a) {
    int strength[2] = {a->p[0].strength, a->p[1].strength};
    int trade[2] = {a->p[0].trade, a->p[1].trade};
    tell_token(t, "strength", b->knight_token, a->knight_token, strength);
    tell_token(t, "trade", b->windmill, a->windmill, trade);
    if (!a->over || b->over) return;
    int winners[2], n = ct_winners(a, winners), scores[2] = {ct_vp(a, 0), ct_vp(a, 1)};
    unsigned mask = 0;
    for (int i = 0; i < n; i++) mask |= 1u << winners[i];
    begin(t, K_GAME_OVER, -1);
    str(t, "result", a->draw_game ? "draw" : "win");
    tf_event_seat_set(t->ev, "winner_seats", mask);
    tf_event_ints(t->ev, "scores_by_seat", scores, 2);
    num(t, "turn", a->turn);
}

static void step_points(teller *t, const ct_state *b, const ct_state *a) {
    for (int seat = 0; seat < 2; seat++) t->vp[seat] = a->p[seat].vp - b->p[seat].vp;
}

int ct_describe(const void *data, tafel_action x, tf_events *ev) {
    teller t = {ev, ev->seat, {0, 0}};
    ct_state before = *(const ct_state *)data, after = before;
    ct_walk(&after, x, 0);
    step_points(&t, &before, &after);
    tell_action(&t, &before, &after, x);
    tell_changes(&t, &before, &after);
    for (;;) {
        before = after;
        if (!ct_walk(&after, -1, 1)) break;
        step_points(&t, &before, &after);
        tell_step(&t, &before, &after);
        tell_changes(&t, &before, &after);
    }
    return ev->out.oom ? TAFEL_ENOMEM : TAFEL_OK;
}
