/*
** tensors.c -- Cardcassonne for learners: the observation and information-
** state tensors and the fixed action space (docs/tensors-cardcassonne.md).
**
** A tensor is one flat vector of named parts (the table below, one source
** for the part list and for the writer's offsets); sizes depend on the
** number of players only.  Seats are relative to the observer: slot 0 is
** the observer, then the seats after it in turn order (a spectator, seat -1,
** sees them from seat 0).  What a part holds is what the view (view.c) shows
** that seat, and nothing else: its own hand, other hands only as counts,
** face-down cards as counts by owner unless they are its own (or the game is
** over), the pile as a count.  Rows are written as stretches -- the open
** part behind each row's last follower, and the part each seat's follower
** secured -- counted by card type: the order of cards within a stretch
** changes nothing in the game (a follower takes a stretch whole), so it is
** left out.  The state keeps no history, so the information-state tensor
** adds only what follows from what the seat sees: the cards whose place it
** cannot know.  Counts are raw numbers, flags 0 or 1.
**
** The action space is the engine's own numbering of the seats' actions
** (a card type into a row, a follower into a row, a setup joker's row, ten,
** keep, an animal kind): those already mean the same in every state, so an
** index is the action less the chance outcomes before it.
**
** Read-only over the state; the core zeroed the tensor and checked seat.
*/
#include "cardcassonne.h"

#include <stddef.h>

/* ---- the parts -------------------------------------------------------- */

/* The parts in order: id, name, size in floats for P players and R rounds
** (X-macro: one list makes the enum, the names and the size tables).  The
** last one is the information state's only. */
#define CC_TENSOR_PARTS(X, P, R)                                              \
    X(PHASE, "phase", CC_PH_OVER + 1)                                         \
    X(ROUND, "round", R)                                                      \
    X(PILE, "pile", 1)                                                        \
    X(SETUP_JOKER, "setup_joker", CC_TYPES)                                   \
    X(WRONG_CARD, "wrong_card", CC_TYPES)                                     \
    X(NEW_JOKERS, "new_jokers", 1)                                            \
    X(REMOVED, "removed", CC_TYPES)                                           \
    X(TURNED, "turned", CC_TYPES)                                             \
    X(HAND, "hand", CC_TYPES)                                                 \
    X(TO_MOVE, "to_move", P)                                                  \
    X(DEALER, "dealer", P)                                                    \
    X(HAND_COUNT, "hand_count", P)                                            \
    X(PLAYED, "played", P)                                                    \
    X(FOLLOWER, "follower", (P) * CC_COLOURS)                                 \
    X(SCORE, "score", P)                                                      \
    X(POINTS, "points", (P) * CC_PTS_CATEGORIES)                              \
    X(ANIMALS, "animals", (P) * CC_KINDS)                                     \
    X(ANIMAL_JOKERS, "animal_jokers", (P) * CC_KINDS)                         \
    X(UNASSIGNED, "unassigned_jokers", P)                                     \
    X(CHEST, "chest", (P) * CHEST_SLOTS)                                      \
    X(OPEN_CARDS, "open_cards", CC_COLOURS * CC_TYPES)                        \
    X(OPEN_DOWN, "open_down", CC_COLOURS * (P))                               \
    X(OPEN_DOWN_KNOWN, "open_down_known", CC_COLOURS * CC_TYPES)              \
    X(SECURED_CARDS, "secured_cards", (P) * CC_TYPES)                         \
    X(SECURED_DOWN, "secured_down", (P) * (P))                                \
    X(SECURED_DOWN_KNOWN, "secured_down_known", (P) * CC_TYPES)               \
    X(UNSEEN, "unseen", CC_TYPES)

#define CHEST_SLOTS (CC_COLOURS + 1) /* buildings by colour, building jokers */

#define PART_ID(id, name, size) T_##id,
enum { CC_TENSOR_PARTS(PART_ID, 0, 0) T_PARTS };
#undef PART_ID
#define T_OBSERVATION_PARTS T_UNSEEN

#define PART_NAME(id, name, size) name,
static const char *const part_names[T_PARTS] = {CC_TENSOR_PARTS(PART_NAME, 0, 0)};
#undef PART_NAME

/* The offset of each part for P players (the rounds as cc_rounds has
** them), and after the last the information state's size: the fields of a
** struct of float arrays, one struct per number of players, so that the
** compiler adds the sizes up. */
#define PART_FIELD(id, name, size) float id[size];
#define PART_OFFSET(id, name, size) (uint16_t)(offsetof(LAYOUT, id) / sizeof(float)),
#define OFFSETS(P, R)                                                         \
    struct layout_##P { CC_TENSOR_PARTS(PART_FIELD, P, R) };                  \
    static const uint16_t offsets_##P[T_PARTS + 1] = {                        \
        CC_TENSOR_PARTS(PART_OFFSET, P, R) sizeof(struct layout_##P) / sizeof(float)};
#define LAYOUT struct layout_2
OFFSETS(2, 10)
#undef LAYOUT
#define LAYOUT struct layout_3
OFFSETS(3, 8)
#undef LAYOUT
#define LAYOUT struct layout_4
OFFSETS(4, 6)
#undef LAYOUT
#define LAYOUT struct layout_5
OFFSETS(5, 6)
#undef LAYOUT
#undef OFFSETS
#undef PART_OFFSET
#undef PART_FIELD
static const uint16_t *const offsets[TAFEL_MAX_PLAYERS + 1] = {
    NULL, NULL, offsets_2, offsets_3, offsets_4, offsets_5};

static int parts_of(int kind) {
    return kind == TAFEL_INFORMATION_STATE ? T_PARTS : T_OBSERVATION_PARTS;
}

int cc_tensor_shape(int players, int kind, int *dims) {
    dims[0] = offsets[players][parts_of(kind)];
    return 1;
}

int cc_tensor_parts(int players, int kind, tf_tensor_part *out, int cap) {
    const uint16_t *at = offsets[players];
    int n = parts_of(kind);
    for (int i = 0; i < n && i < cap; i++) {
        out[i].name = part_names[i];
        out[i].size = (size_t)(at[i + 1] - at[i]);
    }
    return n;
}

/* ---- the writer ------------------------------------------------------- */

/* The rows, each from its open end back to the board: entries behind the
** last follower are the open stretch, and each follower met starts the
** stretch it secured.  Face-up cards count by type in the stretch's cards
** (and in turned when scoring turned them up); face-down cards by owner in
** its down, and by type in its known when the observer sees them (bit
** seat of sees; those it does not see count in hidden).  slot[p] is seat
** p's slot.  Most entries are face-up
** cards, and they take one compare and one add; the rest (a few face-down
** cards and followers, the cards taken at scoring) take the branches. */
static void count_rows(const cc_state *s, const uint16_t *at, const uint8_t *slot,
                       unsigned sees, float *out, uint8_t hidden[CC_TYPES]) {
    int P = s->players;
    float *turned = out + at[T_TURNED];
    for (int row = 0; row < CC_COLOURS; row++) {
        const uint8_t *r = s->row[row];
        float *cards = out + at[T_OPEN_CARDS] + row * CC_TYPES;
        float *down = out + at[T_OPEN_DOWN] + row * P;
        float *known = out + at[T_OPEN_DOWN_KNOWN] + row * CC_TYPES;
        for (int i = s->row_len[row] - 1; i >= 0; i--) {
            unsigned e = r[i], t = CC_ENTRY_TYPE(e);
            if (__builtin_expect(e < 32, 1)) { /* face up */
                cards[e] += 1;
            } else if (CC_ENTRY_DOWN(e)) {
                int owner = CC_ENTRY_OWNER(e);
                down[slot[owner]] += 1;
                known[t] += (float)(sees >> owner & 1);
                hidden[t] = (uint8_t)(hidden[t] + !(sees >> owner & 1));
            } else if (CC_IS_FOLLOWER(e)) { /* the stretch before it is its seat's */
                int q = slot[e - CC_FOLLOWER];
                cards = out + at[T_SECURED_CARDS] + q * CC_TYPES;
                down = out + at[T_SECURED_DOWN] + q * P;
                known = out + at[T_SECURED_DOWN_KNOWN] + q * CC_TYPES;
            } else if (e != CC_GONE) { /* turned up at scoring */
                cards[t] += 1;
                turned[t] += 1;
            }
        }
    }
}

void cc_tensor(const void *data, int seat, int kind, float *out) {
    const cc_state *s = data;
    int P = s->players, me = seat < 0 ? 0 : seat;
    const uint16_t *at = offsets[P];
    uint8_t slot[TAFEL_MAX_PLAYERS]; /* seat p's slot: seats relative to the observer */
    for (int i = 0, p = me; i < P; i++, p = cc_next_seat(s, p)) slot[p] = (uint8_t)i;

    out[at[T_PHASE] + s->phase] = 1;
    out[at[T_ROUND] + (s->round < s->rounds ? s->round : s->rounds - 1)] = 1;
    out[at[T_PILE]] = s->pile_total;
    if (s->phase == CC_PH_ROW) out[at[T_SETUP_JOKER] + s->setup_joker] = 1;
    if (s->phase == CC_PH_WRONG)
        out[at[T_WRONG_CARD] + CC_ENTRY_TYPE(s->row[s->score_row][s->score_pos])] = 1;
    if (s->phase == CC_PH_ASSIGN) out[at[T_NEW_JOKERS]] = s->new_jokers;
    float *removed = out + at[T_REMOVED], *hand = out + at[T_HAND];
    for (int t = 0; t < CC_TYPES; t++) removed[t] = s->removed[t];
    if (seat >= 0)
        for (int t = 0; t < CC_TYPES; t++) hand[t] = s->hand[seat][t];
    if (s->actor >= 0) out[at[T_TO_MOVE] + slot[s->actor]] = 1;
    out[at[T_DEALER] + slot[s->dealer]] = 1;

    for (int p = 0; p < P; p++) {
        int r = slot[p];
        out[at[T_HAND_COUNT] + r] = s->hand_count[p];
        out[at[T_PLAYED] + r] = s->played[p];
        if (s->follower_row[p] != CC_NONE)
            out[at[T_FOLLOWER] + r * CC_COLOURS + s->follower_row[p]] = 1;
        out[at[T_SCORE] + r] = s->score[p];
        float *points = out + at[T_POINTS] + r * CC_PTS_CATEGORIES;
        for (int c = 0; c < CC_PTS_CATEGORIES; c++) points[c] = s->points[p][c];
        float *animals = out + at[T_ANIMALS] + r * CC_KINDS;
        float *jokers = out + at[T_ANIMAL_JOKERS] + r * CC_KINDS;
        for (int k = 0; k < CC_KINDS; k++) {
            animals[k] = s->animals[p][k];
            jokers[k] = s->jokers_as[p][k];
        }
        out[at[T_UNASSIGNED] + r] = s->unassigned[p];
        float *chest = out + at[T_CHEST] + r * CHEST_SLOTS;
        for (int c = 0; c < CC_COLOURS; c++) chest[c] = s->taken[p][c * CC_PER_COLOUR + 4];
        chest[CC_COLOURS] = s->taken[p][CC_HJ_TYPE];
    }

    /* the observer sees its own face-down cards (a spectator none), and
    ** every one once the game is over */
    unsigned sees = s->phase == CC_PH_OVER ? 0x1Fu : seat >= 0 ? 1u << seat : 0;
    uint8_t hidden[CC_TYPES] = {0};
    count_rows(s, at, slot, sees, out, hidden);

    if (kind != TAFEL_INFORMATION_STATE) return;
    /* unseen: the cards whose place the seat does not see, which are every
    ** card less those it sees (the test derives it so, from the view): the
    ** pile, the other hands, the face-down cards hidden from it -- counted
    ** so, as bytes a type per lane, it costs a few vector adds */
    uint8_t n[CC_TYPES];
    memcpy(n, s->pile, sizeof n);
    for (int p = 0; p < P; p++)
        if (p != seat)
            for (int t = 0; t < CC_TYPES; t++) n[t] = (uint8_t)(n[t] + s->hand[p][t]);
    float *unseen = out + at[T_UNSEEN];
    for (int t = 0; t < CC_TYPES; t++) unseen[t] = n[t] + hidden[t];
}

/* ---- the action space ------------------------------------------------- */

/* Every action from the first play on is a seat's, every one before is a
** chance outcome. */
#define FIRST_SEAT_ACTION CC_A_PLAY
#define SEAT_ACTIONS (CC_ACTIONS - FIRST_SEAT_ACTION)

int cc_action_space(int players) {
    (void)players;
    return SEAT_ACTIONS;
}

/* Whether a is legal for the seat to move: what legal() lists, in a few
** compares (the mask asks it of every legal action). */
static int seat_action_legal(const cc_state *s, tafel_action a) {
    int p = s->turn;
    switch (s->phase) {
    case CC_PH_PLAY:
        if (a >= CC_A_PLAY && a < CC_A_FOLLOWER) {
            int t = (a - CC_A_PLAY) / CC_COLOURS, row = (a - CC_A_PLAY) % CC_COLOURS;
            return s->hand[p][t] && (s->played[p] == 0 || !cc_misplaced(t, row));
        }
        return a >= CC_A_FOLLOWER && a < CC_A_ROW && s->follower_row[p] == CC_NONE;
    case CC_PH_ROW: return a >= CC_A_ROW && a < CC_A_ROW + CC_COLOURS;
    case CC_PH_WRONG: return a == CC_A_TEN || a == CC_A_KEEP;
    case CC_PH_ASSIGN:
        return a >= CC_A_ASSIGN && a < CC_ACTIONS && cc_holds_kind(s, p, a - CC_A_ASSIGN);
    default: return 0;
    }
}

int cc_action_index(const void *data, tafel_action a) {
    return seat_action_legal(data, a) ? a - FIRST_SEAT_ACTION : -1;
}

int cc_index_action(const void *data, int index, tafel_action *out) {
    if (index < 0 || index >= SEAT_ACTIONS) return -1;
    tafel_action a = FIRST_SEAT_ACTION + index;
    if (!seat_action_legal(data, a)) return -1;
    *out = a;
    return 0;
}
