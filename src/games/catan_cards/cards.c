/*
** cards.c -- every card of the game as data, one row per card (rules §1-§3).
**
** Costs are in resource order lumber, wool, brick, ore, grain, gold.  The
** effects that are numbers (victory points, trade points, strength,
** tournament points, the region a producer doubles, a fleet's resource) are
** columns; the effects that are rules (Garrison's protection, Aqueduct,
** Town hall, ...) are looked up by type where the rule applies.
*/
#include "catan.h"

const char *const ct_res_codes[CT_RES] = {"L", "W", "B", "O", "G", "Au"};
const char *const ct_res_names[CT_RES] = {"lumber", "wool", "brick", "ore", "grain", "gold"};
const char *const ct_region_names[CT_RES] = {"forest",    "pasture", "hills",
                                             "mountains", "fields",  "gold"};

const ct_region_card ct_region_cards[CT_REGION_CARDS] = {
    /* the region stack (11) */
    {"fields3", CT_FIELDS, 3},       {"fields4", CT_FIELDS, 4},
    {"mountains4", CT_MOUNTAINS, 4}, {"mountains5", CT_MOUNTAINS, 5},
    {"pasture5", CT_PASTURE, 5},     {"pasture6", CT_PASTURE, 6},
    {"forest6", CT_FOREST, 6},       {"forest1", CT_FOREST, 1},
    {"hills1", CT_HILLS, 1},         {"hills2", CT_HILLS, 2},
    {"gold3", CT_GOLDFIELD, 3},
    /* the start regions, in resource order (forest, pasture, hills, mountains,
       fields, gold): seat 0's (the start player), then seat 1's */
    {"forest4", CT_FOREST, 4},       {"pasture3", CT_PASTURE, 3},
    {"hills5", CT_HILLS, 5},         {"mountains2", CT_MOUNTAINS, 2},
    {"fields1", CT_FIELDS, 1},       {"gold6", CT_GOLDFIELD, 6},
    {"forest5", CT_FOREST, 5},       {"pasture4", CT_PASTURE, 4},
    {"hills6", CT_HILLS, 6},         {"mountains3", CT_MOUNTAINS, 3},
    {"fields2", CT_FIELDS, 2},       {"gold1", CT_GOLDFIELD, 1},
};

#define COST(l, w, b, o, g) {l, w, b, o, g, 0}
#define NO_BOOST -1
#define NO_FLEET -1

const ct_card ct_cards[CT_CARD_TYPES] = {
    /* name, code, colour, what, count, cost L W B O G Au, vp, trade, strength,
       tournament, boosts, fleet */
    [CT_ABBEY] = {"Abbey", "abbey", CT_GREEN, CT_BUILDING, 2, COST(1, 0, 1, 1, 0), 0, 0, 0, 0,
                  NO_BOOST, NO_FLEET},
    [CT_GARRISON] = {"Garrison", "garrison", CT_GREEN, CT_BUILDING, 3, COST(1, 0, 1, 0, 0), 0, 1,
                     0, 0, NO_BOOST, NO_FLEET},
    [CT_SMITHY] = {"Smithy", "smithy", CT_GREEN, CT_BUILDING, 1, COST(1, 0, 0, 2, 0), 0, 0, 0, 0,
                   NO_BOOST, NO_FLEET},
    [CT_BRICK_FACTORY] = {"Brick factory", "brick-factory", CT_GREEN, CT_BUILDING, 1,
                          COST(0, 0, 1, 1, 0), 0, 0, 0, 0, CT_HILLS, NO_FLEET},
    [CT_FOUNDRY] = {"Foundry", "foundry", CT_GREEN, CT_BUILDING, 1, COST(0, 0, 1, 1, 0), 0, 0,
                    0, 0, CT_MOUNTAINS, NO_FLEET},
    [CT_GRAIN_MILL] = {"Grain mill", "grain-mill", CT_GREEN, CT_BUILDING, 1,
                       COST(0, 0, 1, 0, 1), 0, 0, 0, 0, CT_FIELDS, NO_FLEET},
    [CT_SAWMILL] = {"Sawmill", "sawmill", CT_GREEN, CT_BUILDING, 1, COST(2, 0, 0, 0, 0), 0, 0, 0,
                    0, CT_FOREST, NO_FLEET},
    [CT_WOOLEN_MILL] = {"Woolen mill", "woolen-mill", CT_GREEN, CT_BUILDING, 1,
                        COST(0, 1, 1, 0, 0), 0, 0, 0, 0, CT_PASTURE, NO_FLEET},
    [CT_FLEET_FIRST + CT_LUMBER] = {"Trade fleet (lumber)", "fleet-lumber", CT_GREEN, CT_UNIT, 1,
                                    COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_LUMBER},
    [CT_FLEET_FIRST + CT_WOOL] = {"Trade fleet (wool)", "fleet-wool", CT_GREEN, CT_UNIT, 1,
                                  COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_WOOL},
    [CT_FLEET_FIRST + CT_BRICK] = {"Trade fleet (brick)", "fleet-brick", CT_GREEN, CT_UNIT, 1,
                                   COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_BRICK},
    [CT_FLEET_FIRST + CT_ORE] = {"Trade fleet (ore)", "fleet-ore", CT_GREEN, CT_UNIT, 1,
                                 COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_ORE},
    [CT_FLEET_FIRST + CT_GRAIN] = {"Trade fleet (grain)", "fleet-grain", CT_GREEN, CT_UNIT, 1,
                                   COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_GRAIN},
    [CT_FLEET_FIRST + CT_GOLD] = {"Trade fleet (gold)", "fleet-gold", CT_GREEN, CT_UNIT, 1,
                                  COST(1, 1, 0, 0, 0), 0, 1, 0, 0, NO_BOOST, CT_GOLD},
    /* knights: strength (black) / tournament (red) */
    [CT_KNIGHT_FIRST + 0] = {"Knight Conrad", "conrad", CT_GREEN, CT_UNIT, 1, COST(0, 0, 0, 1, 1),
                             0, 0, 2, 1, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 1] = {"Knight Falk", "falk", CT_GREEN, CT_UNIT, 1, COST(0, 1, 0, 2, 2), 0,
                             0, 1, 5, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 2] = {"Knight Götz", "gotz", CT_GREEN, CT_UNIT, 1, COST(0, 2, 0, 2, 2), 0,
                             0, 5, 2, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 3] = {"Knight Hagen", "hagen", CT_GREEN, CT_UNIT, 1, COST(0, 0, 0, 1, 1),
                             0, 0, 1, 2, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 4] = {"Knight Karl", "karl", CT_GREEN, CT_UNIT, 1, COST(0, 3, 0, 2, 2), 0,
                             0, 7, 1, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 5] = {"Knight Otto", "otto", CT_GREEN, CT_UNIT, 1, COST(0, 1, 0, 2, 1), 0,
                             0, 3, 2, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 6] = {"Knight Pippin", "pippin", CT_GREEN, CT_UNIT, 1, COST(0, 1, 0, 1, 1),
                             0, 0, 1, 3, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 7] = {"Knight Siegfried", "siegfried", CT_GREEN, CT_UNIT, 1,
                             COST(0, 0, 0, 1, 0), 0, 0, 1, 1, NO_BOOST, NO_FLEET},
    [CT_KNIGHT_FIRST + 8] = {"Knight Walter", "walter", CT_GREEN, CT_UNIT, 1, COST(0, 1, 0, 1, 1),
                             0, 0, 3, 1, NO_BOOST, NO_FLEET},
    /* red: city expansions */
    [CT_AQUEDUCT] = {"Aqueduct", "aqueduct", CT_RED, CT_BUILDING, 2, COST(2, 0, 2, 2, 0), 1, 0, 0,
                     0, NO_BOOST, NO_FLEET},
    [CT_BATH_HOUSE] = {"Bath house", "bath-house", CT_RED, CT_BUILDING, 2, COST(0, 1, 2, 1, 0), 1,
                       0, 0, 0, NO_BOOST, NO_FLEET},
    [CT_CHURCH] = {"Church", "church", CT_RED, CT_BUILDING, 2, COST(0, 0, 1, 2, 2), 1, 0, 0, 0,
                   NO_BOOST, NO_FLEET},
    [CT_COLOSSUS] = {"Colossus", "colossus", CT_RED, CT_BUILDING, 1, COST(0, 0, 3, 3, 3), 2, 0, 0,
                     0, NO_BOOST, NO_FLEET},
    [CT_COUNTING_HOUSE] = {"Counting house", "counting-house", CT_RED, CT_BUILDING, 1,
                           COST(0, 2, 1, 0, 1), 0, 3, 0, 0, NO_BOOST, NO_FLEET},
    [CT_HARBOR] = {"Harbor", "harbor", CT_RED, CT_BUILDING, 1, COST(0, 1, 1, 1, 0), 0, 0, 0, 0,
                   NO_BOOST, NO_FLEET},
    [CT_LIBRARY] = {"Library", "library", CT_RED, CT_BUILDING, 2, COST(2, 0, 1, 2, 0), 1, 0, 0, 0,
                    NO_BOOST, NO_FLEET},
    [CT_MARKETPLACE] = {"Marketplace", "marketplace", CT_RED, CT_BUILDING, 1,
                        COST(0, 1, 0, 0, 1), 0, 2, 0, 0, NO_BOOST, NO_FLEET},
    [CT_MERCHANT_GUILD] = {"Merchant guild", "merchant-guild", CT_RED, CT_BUILDING, 1,
                           COST(0, 3, 2, 0, 1), 0, 4, 0, 0, NO_BOOST, NO_FLEET},
    [CT_MINT] = {"Mint", "mint", CT_RED, CT_BUILDING, 1, COST(2, 0, 2, 2, 0), 0, 1, 0, 0,
                 NO_BOOST, NO_FLEET},
    [CT_TOWN_HALL] = {"Town hall", "town-hall", CT_RED, CT_BUILDING, 2, COST(0, 2, 1, 2, 0), 1, 0,
                      0, 0, NO_BOOST, NO_FLEET},
    /* yellow: action cards, free */
    [CT_ALCHEMIST] = {"Alchemist", "alchemist", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0,
                      0, 0, 0, NO_BOOST, NO_FLEET},
    [CT_ARSONIST] = {"Arsonist", "arsonist", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0, 0,
                     0, 0, NO_BOOST, NO_FLEET},
    [CT_BLACK_KNIGHT] = {"Black knight", "black-knight", CT_YELLOW, CT_ACTION, 3,
                         COST(0, 0, 0, 0, 0), 0, 0, 0, 0, NO_BOOST, NO_FLEET},
    [CT_BRIGANDS] = {"Brigands", "brigands", CT_YELLOW, CT_ACTION, 1, COST(0, 0, 0, 0, 0), 0, 0,
                     0, 0, NO_BOOST, NO_FLEET},
    [CT_BISHOP] = {"Bishop", "bishop", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0, 0, 0, 0,
                   NO_BOOST, NO_FLEET},
    [CT_HERB_WITCH] = {"Herb witch", "herb-witch", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0,
                       0, 0, 0, NO_BOOST, NO_FLEET},
    [CT_CARAVAN] = {"Caravan", "caravan", CT_YELLOW, CT_ACTION, 1, COST(0, 0, 0, 0, 0), 0, 0, 0,
                    0, NO_BOOST, NO_FLEET},
    [CT_MERCHANT] = {"Merchant", "merchant", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0, 0,
                     0, 0, NO_BOOST, NO_FLEET},
    [CT_SCOUT] = {"Scout", "scout", CT_YELLOW, CT_ACTION, 2, COST(0, 0, 0, 0, 0), 0, 0, 0, 0,
                  NO_BOOST, NO_FLEET},
    [CT_SPY] = {"Spy", "spy", CT_YELLOW, CT_ACTION, 3, COST(0, 0, 0, 0, 0), 0, 0, 0, 0, NO_BOOST,
                NO_FLEET},
};

const char *const ct_event_names[CT_EVENT_TYPES] = {
    "Civil war", "Conflict", "Master builder", "Plague", "Productive year", "Progress",
    "Year end"};
const char *const ct_event_codes[CT_EVENT_TYPES] = {
    "civil-war", "conflict", "master-builder", "plague", "productive-year", "progress",
    "year-end"};
const uint8_t ct_event_counts[CT_EVENT_TYPES] = {1, 1, 1, 2, 2, 2, 1};

const char *const ct_face_codes[CT_EVENT_FACES] = {"tournament", "trade", "brigand",
                                                   "good-year", "event"};
