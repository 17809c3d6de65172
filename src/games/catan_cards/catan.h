/*
** catan.h -- the Settlers of Catan card game (1996, two players): the state
** and what the module's files share.  Rules: shared/rules/catan_cards.md;
** notation and decisions: docs/catan_cards.md.
**
** Every shuffle is dealt by chance actions, one card at a time, so the
** state always holds the true order of every stack, and who knows what is
** a bit per card slot and seat (a search, the Spy, a card one put under a
** stack oneself).  Resampling permutes the cards a seat does not know
** among the slots it does not know.
**
** The flow is a stack of frames: each is one step still to do ("roll",
** "gain a resource", "main phase of seat 0", "refill").  Automatic frames
** run at once; the frame on top that needs a decision says whose turn it
** is and what its actions mean ("take L" and "pay L" are one action number,
** read by the frame).
*/
#ifndef CT_CATAN_H
#define CT_CATAN_H

#include "../../core/module.h"

#include <stdint.h>

/* ---- resources and regions -------------------------------------------- */

enum { CT_LUMBER, CT_WOOL, CT_BRICK, CT_ORE, CT_GRAIN, CT_GOLD, CT_RES };
/* Arrays of counts by resource (stock, room, rates, costs) are padded to a
** word, the padding 0, so that legality compares all six at once. */
#define CT_RES_WORD 8
/* Region kinds produce the resource of the same number. */
enum { CT_FOREST, CT_PASTURE, CT_HILLS, CT_MOUNTAINS, CT_FIELDS, CT_GOLDFIELD };

extern const char *const ct_res_codes[CT_RES];   /* "L" "W" "B" "O" "G" "Au" */
extern const char *const ct_res_names[CT_RES];   /* "lumber" ... */
extern const char *const ct_region_names[CT_RES]; /* "forest" ... */

/* A region card: its kind and production number.  Ids 0..10 are the region
** stack; 11..22 the start regions (11..16 of seat 0, 17..22 of seat 1, each
** in resource order, so that start region 11 + 6 * seat + kind). */
typedef struct ct_region_card {
    const char *name;  /* notation: "forest6", "gold3" */
    uint8_t kind, number;
} ct_region_card;

#define CT_STACK_REGIONS 11
#define CT_REGION_CARDS 23
extern const ct_region_card ct_region_cards[CT_REGION_CARDS];

/* ---- expansion and action cards ---------------------------------------- */

enum { CT_GREEN, CT_RED, CT_YELLOW };
enum { CT_BUILDING, CT_UNIT, CT_ACTION }; /* what a card is */

/* Card types (44); identical copies share a type. */
enum {
    CT_ABBEY, CT_GARRISON, CT_SMITHY, CT_BRICK_FACTORY, CT_FOUNDRY, CT_GRAIN_MILL,
    CT_SAWMILL, CT_WOOLEN_MILL,
    CT_FLEET_FIRST, /* trade fleets, one per resource, in CT_RES order */
    CT_KNIGHT_FIRST = CT_FLEET_FIRST + CT_RES, /* 9 knights */
    CT_AQUEDUCT = CT_KNIGHT_FIRST + 9, CT_BATH_HOUSE, CT_CHURCH, CT_COLOSSUS,
    CT_COUNTING_HOUSE, CT_HARBOR, CT_LIBRARY, CT_MARKETPLACE, CT_MERCHANT_GUILD, CT_MINT,
    CT_TOWN_HALL,
    CT_ALCHEMIST, CT_ARSONIST, CT_BLACK_KNIGHT, CT_BRIGANDS, CT_BISHOP, CT_HERB_WITCH,
    CT_CARAVAN, CT_MERCHANT, CT_SCOUT, CT_SPY,
    CT_CARD_TYPES
};
#define CT_EXPANSION_CARDS 62

typedef struct ct_card {
    const char *name;   /* as in the rules file: "Brick factory" */
    const char *code;   /* notation: "brick-factory" */
    uint8_t colour;     /* CT_GREEN, CT_RED, CT_YELLOW */
    uint8_t what;       /* CT_BUILDING, CT_UNIT, CT_ACTION */
    uint8_t count;
    uint8_t cost[CT_RES_WORD];
    uint8_t vp, trade;  /* victory and trade points */
    uint8_t strength, tournament; /* knights */
    int8_t boosts;      /* producer building: the region kind it doubles, else -1 */
    int8_t fleet;       /* trade fleet: its resource, else -1 */
} ct_card;

extern const ct_card ct_cards[CT_CARD_TYPES];

/* The common stacks' costs (rules: roads 2B L, settlements B L W G, cities 3O 2G). */
extern const uint8_t ct_road_cost[CT_RES_WORD];
extern const uint8_t ct_settlement_cost[CT_RES_WORD];
extern const uint8_t ct_city_cost[CT_RES_WORD];

/* ---- events ------------------------------------------------------------- */

enum { CT_EV_CIVIL_WAR, CT_EV_CONFLICT, CT_EV_MASTER_BUILDER, CT_EV_PLAGUE,
       CT_EV_PRODUCTIVE_YEAR, CT_EV_PROGRESS, CT_EV_YEAR_END, CT_EVENT_TYPES };
#define CT_EVENT_CARDS 10
extern const char *const ct_event_names[CT_EVENT_TYPES];  /* "Civil war" */
extern const char *const ct_event_codes[CT_EVENT_TYPES];  /* "civil-war" */
extern const uint8_t ct_event_counts[CT_EVENT_TYPES];

/* The event die: 6 faces, the event card on two. */
enum { CT_DIE_TOURNAMENT, CT_DIE_TRADE, CT_DIE_BRIGAND, CT_DIE_GOOD_YEAR, CT_DIE_EVENT,
       CT_EVENT_FACES };
extern const char *const ct_face_codes[CT_EVENT_FACES]; /* "tournament" ... */

/* ---- the principality ---------------------------------------------------- */

/* Columns -14..14 are stored as 0..28; the start settlements are at 0 and
** 2, so a principality may grow 6 settlements to either side. */
#define CT_COLS 29
#define CT_COL0 14
#define CT_SITE_ROWS 4 /* rows -2, -1, +1, +2 */
#define CT_SITES (CT_COLS * CT_SITE_ROWS)
enum { CT_EMPTY, CT_ROAD, CT_SETTLEMENT, CT_CITY };
#define CT_NONE 0xFF

typedef struct ct_region {
    uint8_t card;      /* ct_region_cards id, CT_NONE for no region */
    uint8_t stock;     /* 0..3 */
} ct_region;

/* At most 3 regions share a kind or a production number (one start
** region and two of the region stack). */
#define CT_PER_KIND 4
#define CT_DOUBLED 0x80

typedef struct ct_player {
    uint8_t centre[CT_COLS];            /* row 0: CT_EMPTY, CT_ROAD, ... */
    ct_region region[CT_COLS][2];       /* odd columns, rows -1, +1 */
    uint8_t site[CT_COLS][CT_SITE_ROWS];/* even columns: card type or CT_NONE */
    int8_t left, right;                 /* extreme used columns, stored index */
    uint8_t hand[16];                   /* card types */
    uint8_t hand_len;
    uint16_t hand_known;                /* bit i: the other seat knows hand[i] */

    /* Derived from the above by ct_refresh after every step, so that legal
    ** lists and points are read, not recounted. */
    uint8_t stock[CT_RES_WORD], room[CT_RES_WORD]; /* resources held, room left, by kind */
    uint8_t rate[CT_RES_WORD]; /* bank trade: 3, 2 with its fleet, gold 1 with a Mint */
    uint8_t built[CT_CARD_TYPES];        /* expansion cards built, by type */
    uint8_t vp, strength, tournament, trade, limit, has_city; /* vp without tokens */
    /* The regions, as index col * 2 + row into region[][]: by kind in the
    ** order paying and gaining break ties in, and by production number
    ** with CT_DOUBLED set where a producer building doubles the yield.
    ** Paying, gaining and production read these instead of the row. */
    uint8_t kind_n[CT_RES], kind_at[CT_RES][CT_PER_KIND];
    uint8_t die_n[7], die_at[7][CT_PER_KIND];
    /* Empty building sites, bit col / 2 * 4 + row index (sites stand on
    ** even columns only), and those of them at cities (for red cards). */
    uint64_t free_sites, free_city_sites;
} ct_player;

#define CT_STACKS 5
#define CT_STACK_MAX CT_EXPANSION_CARDS

/* ---- flow ---------------------------------------------------------------- */

typedef struct ct_frame {
    uint8_t kind, seat, a, b;
} ct_frame;
#define CT_MAX_FRAMES 24

enum {
    /* chance */
    F_DEAL_STACKS, F_DEAL_REGIONS, F_DEAL_EVENTS, F_DIE, F_EVENT_DIE, F_DUEL,
    /* decisions */
    F_ARRANGE, F_START_STACK, F_START_TAKE, F_ROLL, F_GAIN, F_TAKE, F_MAIN,
    F_PLACE_REGIONS, F_REFILL, F_PAY_SEARCH, F_SEARCH_TAKE, F_DISCARD, F_EXCHANGE_TAKE,
    F_OFFER, F_COUNTER, F_PICK_SITE, F_CARAVAN, F_MERCHANT_TAKE, F_MERCHANT_GIVE,
    F_SPY_TAKE, F_CONFLICT_PICK, F_MASTER_SEARCH, F_MASTER_TAKE, F_MASTER_PUT,
    F_SCOUT_PICK, F_BANK, F_NEGOTIATE,
    /* automatic */
    F_TURN, F_EVENT, F_PRODUCTION, F_EVENT_CARD, F_LIMIT, F_DUEL_RESULT,
    F_FRAME_KINDS
};

/* Offers: give kind and n, get kind and n (1..3 each), as A_OFFER + code. */
#define CT_OFFER_CODES (CT_RES * CT_RES * 9)
#define CT_OFFER_BYTES ((CT_OFFER_CODES + 7) / 8)

typedef struct ct_state {
    uint8_t win_on_own_turn;
    int8_t actor;           /* ct_current's answer, kept by apply for the core to
                            ** read without a call (ct_check compares) */
    uint16_t max_turns;
    uint16_t turn;          /* turns begun, from 1 */
    uint8_t active;         /* whose turn */
    uint8_t over, draw_game;
    uint8_t dirty;          /* bit per seat whose principality changed: recount it */
    uint8_t die, face, duel; /* the last rolls */
    uint8_t declined;       /* offers declined this turn: at most 3 (rules §4.3) */
    int8_t knight_token, windmill; /* holder seat or -1 */
    uint8_t roads_left, settlements_left, cities_left;
    uint8_t offer[4];       /* give kind, give n, get kind, get n */
    /* Bots' manners, not rules (ct_request): offers made this turn, and by
    ** seat the offers (A_OFFER codes, a bit each) the other seat declined in
    ** this game.  Public: both players saw them. */
    uint8_t offers;
    uint8_t refused[2][CT_OFFER_BYTES];
    /* Each seat's last build or action card played in its main phase (the
    ** action, -1 for none) and the turn of it: what the terminal shows of
    ** the opponent's last move.  Public; nothing else reads it. */
    int16_t last_build[2];
    uint16_t last_build_turn[2];

    ct_player p[2];

    uint8_t stack[CT_STACKS][CT_STACK_MAX]; /* index 0 is the top */
    uint8_t stack_len[CT_STACKS];
    uint8_t stack_known[CT_STACKS][CT_STACK_MAX]; /* bit s: seat s knows it */
    uint8_t regions[CT_STACK_REGIONS];   /* region stack, top first */
    uint8_t regions_len, regions_known[CT_STACK_REGIONS];
    uint8_t events[CT_EVENT_CARDS];      /* event deck, top first */
    uint8_t events_known[CT_EVENT_CARDS];
    uint8_t drawn_regions[2];            /* a new settlement's two regions */
    int8_t new_col;                      /* the new settlement's column index */
    uint8_t dealt;                       /* cards dealt in the running shuffle */
    uint8_t pool[CT_CARD_TYPES];         /* expansion cards still to deal */
    uint16_t region_pool;                /* bit: region card still to deal */
    uint8_t event_pool[CT_EVENT_TYPES];  /* event cards still to deal */
    uint8_t played_out[CT_CARD_TYPES];   /* action cards played: out of the game */

    uint8_t nframes;
    ct_frame frame[CT_MAX_FRAMES];
} ct_state;

/* ---- actions ---------------------------------------------------------------
** Ranges in this order.  Some numbers are read by the frame on top: A_RES is
** "gain L", "take L", "pay L" or "give L"; A_PASS is "end", "done", "pass",
** "decline" or "no-counter"; A_TRADE is a bank trade or a Caravan swap;
** A_UNDER puts a card under a stack (discard, exchange, Conflict, Master
** builder). */
#define A_STACK_CARD 0                               /* chance: + card type */
#define A_REGION_CARD (A_STACK_CARD + CT_CARD_TYPES)  /* chance/choice: + region */
#define A_EVENT_CARD (A_REGION_CARD + CT_STACK_REGIONS) /* chance: + event type */
#define A_DIE (A_EVENT_CARD + CT_EVENT_TYPES)          /* chance: + n - 1 */
#define A_FACE (A_DIE + 6)                             /* chance: + face */
#define A_DUEL (A_FACE + CT_EVENT_FACES)               /* chance: + n - 1 */
#define A_ARRANGE (A_DUEL + 6)                         /* + permutation (720) */
#define A_SEARCH (A_ARRANGE + 720)                     /* + stack */
#define A_TAKE (A_SEARCH + CT_STACKS)                  /* + card type */
#define A_RES (A_TAKE + CT_CARD_TYPES)                 /* + resource */
#define A_ROLL (A_RES + CT_RES)
#define A_ALCHEMIST (A_ROLL + 1)                       /* + n - 1 */
#define A_PASS (A_ALCHEMIST + 6)
#define A_ACCEPT (A_PASS + 1)
#define A_BANK (A_ACCEPT + 1)                          /* main: open a bank trade */
#define A_NEGOTIATE (A_BANK + 1)                       /* main: make an offer */
#define A_PLAY (A_NEGOTIATE + 1)                       /* + card type */
#define A_TRADE (A_PLAY + CT_CARD_TYPES)               /* + give * 6 + get */
#define A_OFFER (A_TRADE + CT_RES * CT_RES)            /* see ct_offer_action */
#define A_ROAD (A_OFFER + CT_RES * CT_RES * 9)         /* + side (0 left, 1 right) */
#define A_SETTLE (A_ROAD + 2)                          /* + side + 2 * scout */
#define A_CITY (A_SETTLE + 4)                          /* + column */
#define A_BUILD (A_CITY + CT_COLS)                     /* + type * CT_SITES + site */
#define A_DRAW (A_BUILD + CT_CARD_TYPES * CT_SITES)    /* + stack */
#define A_UNDER (A_DRAW + CT_STACKS)                   /* + type * 5 + stack */
#define A_SITE (A_UNDER + CT_CARD_TYPES * CT_STACKS)   /* + site */
#define A_ABOVE (A_SITE + CT_SITES)                    /* + region card */
#define CT_ACTIONS (A_ABOVE + CT_REGION_CARDS)

/* ---- functions ------------------------------------------------------------ */

/* principality.c: layout, resources, points.  The counts and points read
** the derived fields: after changing regions or sites outside apply (a
** test setting up a position), call ct_refresh. */
void ct_refresh(ct_state *s);
void ct_refresh_seats(ct_state *s, unsigned seats); /* bit per seat whose layout changed */
void ct_principality_init(ct_state *s, int seat);
int ct_stock(const ct_state *s, int seat, int res);
int ct_total_stock(const ct_state *s, int seat);
/* all kinds in one pass: stock and room by resource */
int ct_room(const ct_state *s, int seat, int res);      /* resources it could still hold */
void ct_pay(ct_state *s, int seat, int res, int n);
int ct_gain(ct_state *s, int seat, int res, int n);     /* returns how many fitted */
void ct_pay_cost(ct_state *s, int seat, const uint8_t cost[CT_RES_WORD]);
int ct_count_type(const ct_state *s, int seat, int type); /* cards of a type built */
int ct_strength(const ct_state *s, int seat);
int ct_tournament(const ct_state *s, int seat);
int ct_trade_points(const ct_state *s, int seat);
int ct_vp(const ct_state *s, int seat);
int ct_hand_limit(const ct_state *s, int seat);
void ct_produce(ct_state *s, int die);
int ct_protected(const ct_state *s, int seat, int col, int row); /* by a Garrison */
/* Garrisons bordering the region at (col, ri), ri 0 for row -1 and 1 for +1 */
int ct_garrisons_beside(const ct_state *s, int seat, int col, int ri);
void ct_brigand_attack(ct_state *s);
void ct_plague(ct_state *s);
void ct_productive_year(ct_state *s);
/* sites: index = col * 4 + row index (rows -2, -1, +1, +2) */
int ct_site_exists(const ct_state *s, int seat, int col, int ri);
int ct_site_row(int ri);                                 /* -2, -1, 1, 2 */
int ct_trade_rate(const ct_state *s, int seat, int res); /* 3, 2 or 1 */

/* stacks.c: cards moving between stacks and hands, knowledge */
void ct_hand_add(ct_state *s, int seat, int type, int other_knows);
int ct_hand_find(const ct_state *s, int seat, int type); /* slot or -1 */
void ct_hand_remove(ct_state *s, int seat, int slot);
int ct_stack_find(const ct_state *s, int k, int type);
void ct_stack_take(ct_state *s, int seat, int k, int slot); /* into seat's hand */
void ct_put_under(ct_state *s, int seat, int slot, int k);  /* seat's hand slot */
void ct_learn_stack(ct_state *s, int seat, int k);
void ct_learn_hand(ct_state *s, int seat);                  /* seat sees the other hand */

/* game.c */
int ct_current(const void *data);      /* whose turn, from the frames */
int ct_frame_kind(const ct_state *s); /* the frame on top, or -1 */
int ct_apply(void *data, tafel_action a, tafel_error *err);
int ct_winners(const void *data, int *out);
/* whether a is legal now (what legal lists), without listing */
int ct_legal_action(const void *data, tafel_action a);
/* tafel_state_action_request: whether legal a is an offer to the opponent,
** and whether a bot should hold it back now (TAFEL_REQUEST_SPENT) */
int ct_request(const void *data, tafel_action a);
/* ct_play, stopping after max steps (account.c): see game.c */
int ct_walk(ct_state *s, tafel_action a, int max);

/* account.c: the account of an action (docs/events-catan_cards.md) */
int ct_describe(const void *data, tafel_action a, tf_events *ev);
extern const char *const ct_account_kinds[]; /* every kind of event it writes */
extern const int ct_account_kind_count;

/* notation.c */
int ct_to_text(const void *data, tafel_action a, char *buf, size_t n);
int ct_view_text(const void *data, int seat, tafel_action a, char *buf, size_t n);
int ct_from_text(const void *data, const char *text, tafel_action *out, tafel_error *err);
/* seat's start region cards in the order "arrange G O W L B Au" places
** them ("fields1 mountains2 pasture3 forest4 hills5 gold6" for seat 0) */
void ct_start_regions_example(int seat, char *out, size_t n);

/* view.c */
int ct_view_json(const void *data, int seat, tf_buf *out);
int ct_pieces_json(tf_buf *out);
int ct_render(const void *data, int seat, int flags, tf_buf *out);
int ct_resample(void *data, int seat, uint64_t *rng);
int ct_check(const void *data, tafel_error *err);
/* the last event card turned up that the table can still tell, or -1 */
int ct_last_event_card(const ct_state *s);

/* tensors.c: for learners (docs/tensors-catan_cards.md) */
int ct_tensor_shape(int players, int kind, int *dims);
int ct_tensor_parts(int players, int kind, tf_tensor_part *out, int cap);
void ct_tensor(const void *data, int seat, int kind, float *out);
int ct_action_space(int players);
int ct_action_index(const void *data, tafel_action a);
int ct_index_action(const void *data, int index, tafel_action *out);

#endif
