/*
** cards.c -- the 130 cards as data (rules §1), and the tables of §2-§4.
**
** The animal kind is a column of its own, not derived from the colour: no
** source lists kinds per card, and the decision (one kind per colour) is
** then one place to change.  Red is sheep because the one colour a seed
** names is the Dutch example's "een rode schapenkaart" (a red sheep card).
*/
#include "cardcassonne.h"

#include <string.h>
#include <strings.h>

const cc_card cc_cards[CC_TYPES] = {
    /* name     colour     kind          value animal      count */
    {"Y1", CC_YELLOW, CC_PERSON, 1, -1, 8},
    {"Y2", CC_YELLOW, CC_PERSON, 2, -1, 5},
    {"Y3", CC_YELLOW, CC_PERSON, 3, -1, 3},
    {"YA", CC_YELLOW, CC_ANIMAL, 0, CC_CHICKEN, 9},
    {"YH", CC_YELLOW, CC_BUILDING, 0, -1, 5},
    {"R1", CC_RED, CC_PERSON, 1, -1, 8},
    {"R2", CC_RED, CC_PERSON, 2, -1, 5},
    {"R3", CC_RED, CC_PERSON, 3, -1, 3},
    {"RA", CC_RED, CC_ANIMAL, 0, CC_SHEEP, 9},
    {"RH", CC_RED, CC_BUILDING, 0, -1, 5},
    {"G1", CC_GREEN, CC_PERSON, 1, -1, 8},
    {"G2", CC_GREEN, CC_PERSON, 2, -1, 5},
    {"G3", CC_GREEN, CC_PERSON, 3, -1, 3},
    {"GA", CC_GREEN, CC_ANIMAL, 0, CC_HORSE, 9},
    {"GH", CC_GREEN, CC_BUILDING, 0, -1, 5},
    {"B1", CC_BLUE, CC_PERSON, 1, -1, 8},
    {"B2", CC_BLUE, CC_PERSON, 2, -1, 5},
    {"B3", CC_BLUE, CC_PERSON, 3, -1, 3},
    {"BA", CC_BLUE, CC_ANIMAL, 0, CC_PIG, 9},
    {"BH", CC_BLUE, CC_BUILDING, 0, -1, 5},
    {"DRAGON", -1, CC_DRAGON, 0, -1, 1},
    {"FAIRY", -1, CC_FAIRY, 0, -1, 1},
    {"AJ", -1, CC_ANIMAL_JOKER, 0, -1, 4},
    {"HJ", -1, CC_BUILDING_JOKER, 0, -1, 4},
};

const char *const cc_row_names[CC_COLOURS] = {"Y", "R", "G", "B"};
const char *const cc_row_titles[CC_COLOURS] = {"cloister", "road", "meadow", "city"};
const char *const cc_kind_names[CC_KINDS] = {"chicken", "pig", "sheep", "horse"};

/* Points for the total of one animal kind; from 8 cards on, 19 (the seed's
** table stops at 8). */
const uint8_t cc_animal_points[9] = {0, 3, 6, 9, 12, 14, 16, 18, 19};
/* Points for a set of 0..4 different buildings. */
const uint8_t cc_set_points[5] = {0, 0, 5, 15, 30};

const uint8_t cc_leaves[CC_TYPES] = {
    0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0, 0,
    0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0,
};

#define WRONG_COLOUR {1, 1, 0, 0}, {1, 2, 0, 0}, {1, 3, 0, 0}, {0, 0, 1, 0}, {0, 0, 1, 0}
const cc_wrong4 cc_wrong_add[2][CC_TYPES] = {
    {{0}},
    {WRONG_COLOUR, WRONG_COLOUR, WRONG_COLOUR, WRONG_COLOUR, {0}, {0}, {0}, {0}},
};

/* Cards per round and rounds, by number of players (2..5). */
const uint8_t cc_hand_size[6] = {0, 0, 6, 5, 5, 4};
const uint8_t cc_rounds[6] = {0, 0, 10, 8, 6, 6};

void cc_pile_upto(const uint8_t pile[CC_TYPES], uint8_t out[CC_PILE_UPTO]) {
    int n = 0;
    memset(out, 255, CC_PILE_UPTO);
    for (int t = 0; t < CC_TYPES; t++) out[t] = (uint8_t)(n += pile[t]);
}

void cc_stretch_recount(const cc_state *s, int row, int from, int to, cc_stretch *out) {
    memset(out, 0, sizeof *out);
    for (int i = from; i < to; i++) {
        uint8_t e = s->row[row][i];
        if (e != CC_GONE && !CC_IS_FOLLOWER(e))
            cc_stretch_add(out, CC_ENTRY_TYPE(e),
                           CC_ENTRY_WAS_DOWN(e) & cc_misplaced(CC_ENTRY_TYPE(e), row));
    }
}

/* Greedy is optimal here: a set's value grows faster than its size (0, 5,
** 15, 30), so each set takes one card of every colour still held, and the
** jokers fill the biggest sets first.  The tests check this against an
** exhaustive search over every small chest.  sizes, when not NULL, gets
** each set's size, biggest first, and a 0 after the last. */
int cc_building_sets(const uint8_t colours[CC_COLOURS], int jokers, uint8_t *sizes) {
    int points = 0;
    for (int set = 0;; set++) { /* set: the sets each colour has filled */
        int size = 0;
        for (int c = 0; c < CC_COLOURS; c++) size += colours[c] > set;
        int fill = CC_COLOURS - size < jokers ? CC_COLOURS - size : jokers;
        jokers -= fill;
        size += fill;
        if (sizes) sizes[set] = (uint8_t)size;
        if (size == 0) return points;
        points += cc_set_points[size];
    }
}

int cc_building_points(const uint8_t colours[CC_COLOURS], int jokers) {
    return cc_building_sets(colours, jokers, NULL);
}
