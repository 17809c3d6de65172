/*
** cardcassonne.h -- Cardcassonne, the Carcassonne card game (2009): the
** state and what the module's files share.  Rules: shared/rules/cardcassonne.md.
**
** Cards of one kind are identical, so the deck is 24 card types with counts
** (cards.c) and every pile, hand and chest is an array of counts by type.
** Rows are arrays of entries: a card (type, and the seat that played it face
** down, if it is face down) or a big follower.  Everything is plain memory.
*/
#ifndef CC_CARDCASSONNE_H
#define CC_CARDCASSONNE_H

#include "../../core/module.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Colours, which are also the rows: cloister, road, meadow, city. */
enum { CC_YELLOW, CC_RED, CC_GREEN, CC_BLUE, CC_COLOURS };
/* What a card is. */
enum { CC_PERSON, CC_ANIMAL, CC_BUILDING, CC_DRAGON, CC_FAIRY, CC_ANIMAL_JOKER,
       CC_BUILDING_JOKER };
enum { CC_CHICKEN, CC_PIG, CC_SHEEP, CC_HORSE, CC_KINDS };

/* Card types: colour * 5 + {person 1, 2, 3, animal, building}, then jokers. */
#define CC_PER_COLOUR 5
#define CC_DRAGON_TYPE 20
#define CC_FAIRY_TYPE 21
#define CC_AJ_TYPE 22
#define CC_HJ_TYPE 23
#define CC_TYPES 24
#define CC_CARDS 130
#define CC_SETUP_CARDS 10

typedef struct cc_card {
    const char *name;   /* notation: "Y1", "GA", "BH", "DRAGON", "AJ" */
    int8_t colour;      /* CC_YELLOW.. or -1 for a joker */
    uint8_t kind;       /* CC_PERSON.. */
    uint8_t value;      /* person: 1..3 */
    int8_t animal;      /* CC_CHICKEN.. for an animal card, else -1 */
    uint8_t count;      /* copies in the deck */
} cc_card;

extern const cc_card cc_cards[CC_TYPES];
extern const char *const cc_row_names[CC_COLOURS];   /* "Y" "R" "G" "B" */
extern const char *const cc_row_titles[CC_COLOURS];  /* "cloister" ... */
extern const char *const cc_kind_names[CC_KINDS];    /* "chicken" ... */
extern const uint8_t cc_animal_points[9];            /* by count, 8+ = 19 */
extern const uint8_t cc_set_points[5];               /* 0 0 5 15 30 */
/* 0xFF for the cards that leave the game when taken (persons, dragon,
** fairy), 0 for those a seat keeps: a mask that splits counts. */
extern const uint8_t cc_leaves[CC_TYPES];

/* Row entries.  A card: its type, plus (owner + 1) << 5 while it lies face
** down, or CC_TURNED when round scoring has turned it up (it still counts
** as placed face down: a wrongly placed card).  A big follower:
** CC_FOLLOWER + seat.  A card taken during scoring becomes CC_GONE until
** the row is cut. */
#define CC_TURNED (6 << 5)
#define CC_GONE 0xDF
#define CC_FOLLOWER 0xE0
#define CC_ENTRY_TYPE(e) ((e) & 31)
#define CC_ENTRY_DOWN(e) ((e) >> 5 >= 1 && (e) >> 5 <= 5)
#define CC_ENTRY_OWNER(e) (((e) >> 5) - 1) /* when CC_ENTRY_DOWN */
#define CC_ENTRY_WAS_DOWN(e) ((e) >= 32 && (e) < CC_GONE)
#define CC_IS_FOLLOWER(e) ((e) >= CC_FOLLOWER)
#define CC_ROW_MAX (CC_CARDS + 5 + 1)
#define CC_ROW_SLACK 16 /* after each row: cut_rows moves 16-byte chunks */

/* Rounds and hand sizes by player count (rules §2). */
extern const uint8_t cc_hand_size[6], cc_rounds[6];

typedef enum {
    CC_PH_REVEAL, /* chance: turn up a setup card */
    CC_PH_ROW,    /* the dealer puts a setup joker in a row */
    CC_PH_DEAL,   /* chance: deal the next card */
    CC_PH_PLAY,   /* a player plays a card or places the follower */
    CC_PH_WRONG,  /* a wrongly placed animal or building: ten or keep */
    CC_PH_ASSIGN, /* an animal joker to assign */
    CC_PH_OVER
} cc_phase;

/* Points by category, for the breakdown. */
enum { CC_PTS_PERSONS, CC_PTS_ANIMALS, CC_PTS_JOKERS, CC_PTS_DRAGON_FAIRY,
       CC_PTS_WRONG, CC_PTS_BUILDINGS, CC_PTS_CATEGORIES };

/* Action numbers, ascending in this order (legal lists stay sorted). */
#define CC_A_REVEAL 0                       /* + type */
#define CC_A_DEAL (CC_A_REVEAL + CC_TYPES)  /* + type */
#define CC_A_PLAY (CC_A_DEAL + CC_TYPES)    /* + type * 4 + row */
#define CC_A_FOLLOWER (CC_A_PLAY + CC_TYPES * CC_COLOURS) /* + row */
#define CC_A_ROW (CC_A_FOLLOWER + CC_COLOURS)             /* + row */
#define CC_A_TEN (CC_A_ROW + CC_COLOURS)
#define CC_A_KEEP (CC_A_TEN + 1)
#define CC_A_ASSIGN (CC_A_KEEP + 1)                       /* + kind */
#define CC_ACTIONS (CC_A_ASSIGN + CC_KINDS)

#define CC_NONE 0xFF
#define CC_PILE_UPTO 32 /* two 16-byte vectors */

/* What a stretch of a row holds, kept up to date as cards are put in, so
** that round scoring reads counts instead of walking ~100 cards a game.
** A stretch is the part of a row after its last follower (open, by row) or
** the part a seat's follower secured (by seat).  Entries taken or ten'd
** leave it.  cc_stretch_recount() derives it from the entries. */
typedef struct cc_stretch {
    uint8_t count[CC_TYPES]; /* cards by type, except the open choices */
    uint8_t wrong_persons;   /* wrongly placed persons (in count too) */
    uint8_t wrong_value;     /* the sum of their values */
    uint8_t choices;         /* wrongly placed animals and buildings */
    uint8_t unused[5];       /* 32 bytes: two vector moves */
} cc_stretch;

typedef struct cc_state {
    uint8_t players, rounds, hand_size;
    uint8_t first_dealer;   /* the game string's dealer= */
    uint8_t phase;
    int8_t actor;           /* who acts: cc_current's answer, kept up to date
                            ** (cc_actor_of derives it; cc_check compares) */
    uint8_t round;          /* 0-based */
    uint8_t dealer;         /* who dealt this round */
    uint8_t turn;           /* seat to act in PLAY, WRONG and ASSIGN */
    uint8_t revealed;       /* setup cards turned up so far */
    uint8_t setup_joker;    /* PH_ROW: the joker waiting for its row */
    uint8_t dealt;          /* cards dealt this round */
    uint8_t deal_to;        /* the seat the next card goes to */
    uint8_t last_follower;  /* seat that placed its follower last */
    uint8_t pile_total;
    uint8_t pile[CC_TYPES];
    /* pile_upto[t]: the cards of types 0..t in the pile, 255 past the
    ** types.  The r-th card of the pile is of the type that counts the
    ** entries <= r: a deal samples with two vector compares and changes it
    ** with two vector adds, stores to fixed places that the next deal's
    ** loads wait for without guessing at addresses (cc_pile_upto). */
    uint8_t pile_upto[CC_PILE_UPTO];

    uint8_t hand[TAFEL_MAX_PLAYERS][CC_TYPES];
    uint8_t hand_count[TAFEL_MAX_PLAYERS];
    uint8_t played[TAFEL_MAX_PLAYERS];        /* cards played this round */
    uint8_t follower_row[TAFEL_MAX_PLAYERS];  /* CC_NONE: not placed */
    uint8_t follower_at[TAFEL_MAX_PLAYERS];   /* its index in the row */
    /* Each seat's last card or follower, for the picture's mark: its row
    ** (CC_NONE: none in the rows) and index there, kept across the cut. */
    uint8_t last_row[TAFEL_MAX_PLAYERS], last_at[TAFEL_MAX_PLAYERS];
    uint32_t hand_mask[TAFEL_MAX_PLAYERS];    /* bit t: hand[p][t] > 0 */

    /* What each player holds in front (animals, animal jokers) and under
    ** the chest (buildings, building jokers), by type. */
    uint8_t taken[TAFEL_MAX_PLAYERS][CC_TYPES];
    uint8_t animals[TAFEL_MAX_PLAYERS][CC_KINDS]; /* cards + assigned jokers */
    uint8_t jokers_as[TAFEL_MAX_PLAYERS][CC_KINDS]; /* assigned jokers */
    uint8_t unassigned[TAFEL_MAX_PLAYERS];        /* jokers held, no kind yet */
    uint8_t removed[CC_TYPES];                    /* out of the game */
    /* The cards each put out of the game for 10 points: all saw them turned
    ** up, and which were whose tells the view, as the table remembers. */
    uint8_t put_out[TAFEL_MAX_PLAYERS][CC_TYPES];
    int16_t points[TAFEL_MAX_PLAYERS][CC_PTS_CATEGORIES];
    int16_t score[TAFEL_MAX_PLAYERS];

    /* Round scoring: seat (dealer + 1 + scoring) is being scored; its
    ** secured cards are row[score_row][score_from..score_to). */
    uint8_t scoring, score_row, score_from, score_to, score_pos;
    uint8_t touched;        /* kinds that gained a card this round */
    uint8_t new_jokers;     /* animal jokers won this round, not yet assigned */

    uint8_t row_len[CC_COLOURS];
    uint8_t row_secured[CC_COLOURS]; /* entries up to the last follower */
    uint8_t follower_from[TAFEL_MAX_PLAYERS]; /* its stretch: [from, at) */
    uint8_t row[CC_COLOURS][CC_ROW_MAX + CC_ROW_SLACK];
    cc_stretch open[CC_COLOURS];               /* by row */
    cc_stretch secured[TAFEL_MAX_PLAYERS];     /* by seat, until taken */
} cc_state;

/* cards.c */
/* pile_upto as it follows from pile. */
void cc_pile_upto(const uint8_t pile[CC_TYPES], uint8_t out[CC_PILE_UPTO]);
/* Whether a card of type t is out of place in row: a coloured card in
** another colour's row (which is wrong if it was placed face down). */
static inline int cc_misplaced(int t, int row) {
    int colour = cc_cards[t].colour;
    return (colour >= 0) & (colour != row);
}
/* What a card of type t adds to a stretch's wrong_persons, wrong_value and
** choices (and the byte after them), cc_wrong_add[wrong][t]: placed rightly
** nothing; placed wrongly a person itself and its value, an animal or
** building a choice, other cards nothing (they cannot be placed wrongly).
** Byte lanes, so one add updates all three. */
typedef uint8_t cc_wrong4 __attribute__((vector_size(4)));
extern const cc_wrong4 cc_wrong_add[2][CC_TYPES];
_Static_assert(offsetof(cc_stretch, wrong_value) == offsetof(cc_stretch, wrong_persons) + 1 &&
               offsetof(cc_stretch, choices) == offsetof(cc_stretch, wrong_persons) + 2 &&
               offsetof(cc_stretch, unused) == offsetof(cc_stretch, wrong_persons) + 3,
               "cc_stretch_add adds to four bytes from wrong_persons on");
/* Counts a card of type t put into a row in the row's stretch; wrong (0 or
** 1): it went face down into a row not its own.  Every play does this, so no
** branches: the kinds of random cards are unpredictable. */
static inline void cc_stretch_add(cc_stretch *st, int t, int wrong) {
    cc_wrong4 tail, add = cc_wrong_add[wrong][t];
    memcpy(&tail, &st->wrong_persons, sizeof tail);
    tail += add;
    memcpy(&st->wrong_persons, &tail, sizeof tail);
    st->count[t] = (uint8_t)(st->count[t] + 1 - add[2]); /* a choice is not counted yet */
}
/* The stretch row[from..to), counted from its entries. */
void cc_stretch_recount(const cc_state *s, int row, int from, int to, cc_stretch *out);
/* Best building sets: counts by colour and building jokers. */
int cc_building_points(const uint8_t colours[CC_COLOURS], int jokers);
/* The same, and the sets' sizes (at most CC_MAX_SETS, then a 0). */
#define CC_MAX_SETS 12
int cc_building_sets(const uint8_t colours[CC_COLOURS], int jokers, uint8_t *sizes);

/* game.c */
/* The seat after seat, clockwise (no division nor branch: the hot path). */
static inline int cc_next_seat(const cc_state *s, int seat) {
    int next = seat + 1;
    return next & -(next < s->players);
}
int cc_current(const void *data);
int cc_actor_of(const cc_state *s); /* who acts, from phase, turn and dealer */
int cc_apply(void *data, tafel_action a, tafel_error *err);
void cc_start_round(cc_state *s);
void cc_hand_add(cc_state *s, int seat, int type, int n);
int cc_chest_count(const cc_state *s, int seat);

/* account.c: the account of an action.  Scoring takes an optional report
** (NULL in play) and tells it, at each step, the state after the step. */
typedef struct cc_report cc_report;
enum {
    CC_REPORT_SECURED,   /* seat's stretch is turned up: row[score_row][from, to) */
    CC_REPORT_TAKE,      /* seat's cards are about to be taken (choices made) */
    CC_REPORT_TAKEN,     /* ... and were: persons, dragon, fairy scored */
    CC_REPORT_JOKERS,    /* arg animal jokers won scored 3 each, unassigned */
    CC_REPORT_ANIMALS,   /* the kinds that gained a card scored */
    CC_REPORT_ROUND,     /* every seat is scored, the rows are cut */
    CC_REPORT_BUILDINGS, /* the final scoring of seat's chest */
};
void cc_report_step(cc_report *rep, const cc_state *s, int step, int seat, int arg);
int cc_describe(const void *data, tafel_action a, tf_events *ev);

/* scoring.c: round scoring and the end of the game */
void cc_start_scoring(cc_state *s, cc_report *rep);
void cc_continue_scoring(cc_state *s, cc_report *rep);
void cc_ten_or_keep(cc_state *s, int keep, cc_report *rep);
void cc_assign(cc_state *s, int kind, cc_report *rep);
int cc_holds_kind(const cc_state *s, int p, int kind); /* an animal joker may join it */
void cc_final_scoring(cc_state *s, cc_report *rep);
int cc_winners(const void *data, int *out);
void cc_projected(const void *data, double *out);
void cc_heuristic(const void *data, double *out);
int cc_breakdown(const void *data, int seat, const char **names, double *values,
                 int cap);

/* notation.c */
int cc_to_text(const void *data, tafel_action a, char *buf, size_t n);
int cc_view_text(const void *data, int seat, tafel_action a, char *buf, size_t n);
int cc_from_text(const void *data, const char *text, tafel_action *out,
                 tafel_error *err);

/* view.c: what a seat sees, rendering, resampling */
int cc_view_json(const void *data, int seat, tf_buf *out);
int cc_pieces_json(tf_buf *out);
int cc_render(const void *data, int seat, int flags, tf_buf *out);
int cc_resample(void *data, int seat, uint64_t *rng);
int cc_check(const void *data, tafel_error *err);

/* tensors.c: tensors and the fixed action space, for learners
** (docs/tensors-cardcassonne.md) */
int cc_tensor_shape(int players, int kind, int *dims);
int cc_tensor_parts(int players, int kind, tf_tensor_part *out, int cap);
void cc_tensor(const void *data, int seat, int kind, float *out);
int cc_action_space(int players);
int cc_action_index(const void *data, tafel_action a);
int cc_index_action(const void *data, int index, tafel_action *out);

#endif
