/*
** test_catan_actions.c -- the yellow action cards, the event die, the event
** cards, hidden information, the hand limit, trading with the opponent and
** the end of the Catan card game (shared/rules/catan_cards.md §2-§5; the
** Dutch rulebook, shared/seeds/003_1bc82b4a16f0a942.txt, is the authority).
**
** Positions start from ct_game / ct_game_with (catan_setup.h): both players
** arrange their regions "G O W L B Au", i.e.
**
**     row -1:  (-1) fields   (1) mountains   (3) pasture
**     row +1:  (-1) forest   (1) hills       (3) gold field
**
** with the production numbers of the rules' table: seat 0 fields1
** mountains2 pasture3 forest4 hills5 gold6; seat 1 fields2 mountains3
** pasture4 forest5 hills6 gold1.  Building sites of the start settlements:
** (0,-1) borders fields and mountains, (2,-1) mountains and pasture, (0,+1)
** forest and hills, (2,+1) hills and gold.
**
** Scripts are action texts separated by ';', each prefixed by who must be to
** move ("0 play spy": seat 0; "c duel 6": chance), so a script that gets out
** of step fails at once.  Resources are compared as one string in the order
** L W B O G Au ("L1 W2 B1 O1 G1 Au1"); hands and stacks as the words a view
** shows ("? ? garrison").  Action cards may be played from turn 3 on (seat 0's
** second turn), so most action card tests first play two quiet turns.
*/
#include "catan_setup.h"

#include <ctype.h>

/* ------------------------------------------------------------------ helpers */

/* Every state a test makes is tracked, so that a failing test (cmocka jumps
** out of it) leaks nothing: the group teardown frees what is left. */
static tafel_state *owned[64];

static tafel_state *own(tafel_state *s) {
    for (int i = 0; i < 64; i++)
        if (!owned[i]) return owned[i] = s;
    fail_msg("too many live states");
    return s;
}

static void disown(tafel_state *s) {
    for (int i = 0; i < 64; i++)
        if (owned[i] == s) owned[i] = NULL;
}

static int free_owned(void **unused) {
    (void)unused;
    for (int i = 0; i < 64; i++) {
        tafel_state_free(owned[i]);
        owned[i] = NULL;
    }
    return 0;
}

/* (A macro may name itself: inside, ct_game is the function.) */
#define ct_game(starts0, starts1) own(ct_game(starts0, starts1))
#define ct_game_with(game, tops, regions, events, starts0, starts1) \
    own(ct_game_with(game, tops, regions, events, starts0, starts1))

static void run(tafel_state *s, const char *script) { h_script(s, script); }

/* Strings returned by the helpers below live in a few rotating buffers. */
static char *scratch(void) {
    static char bufs[16][2048];
    static int next;
    return bufs[next++ % 16];
}

static const char *join(const cJSON *arr) {
    char *out = scratch();
    size_t used = 0;
    out[0] = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        used += (size_t)snprintf(out + used, 2048 - used, "%s%s", used ? " " : "",
                                 cJSON_IsString(it) ? it->valuestring : "#");
    }
    return out;
}

/* The hand of `who` as `viewer` sees it (-1: a spectator). */
static const char *hand_seen(const tafel_state *s, int viewer, int who) {
    cJSON *v = h_view(s, viewer);
    const cJSON *info = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "players_info"), who);
    const char *r = join(cJSON_GetObjectItem(info, "hand"));
    cJSON_Delete(v);
    return r;
}

/* Stack k (1..5), top first, as viewer sees it. */
static const char *stack_seen(const tafel_state *s, int viewer, int k) {
    cJSON *v = h_view(s, viewer);
    const char *r = join(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "stacks"), k - 1));
    cJSON_Delete(v);
    return r;
}

/* The bottom card of stack k as viewer sees it. */
static const char *stack_bottom(const tafel_state *s, int viewer, int k) {
    cJSON *v = h_view(s, viewer);
    const cJSON *st = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "stacks"), k - 1);
    char *out = scratch();
    const cJSON *last = cJSON_GetArrayItem(st, cJSON_GetArraySize(st) - 1);
    snprintf(out, 64, "%s", cJSON_IsString(last) ? last->valuestring : "(none)");
    cJSON_Delete(v);
    return out;
}

static const char *list_seen(const tafel_state *s, int viewer, const char *key) {
    cJSON *v = h_view(s, viewer);
    const char *r = join(cJSON_GetObjectItem(v, key));
    cJSON_Delete(v);
    return r;
}

static const char *frame_now(const tafel_state *s) {
    cJSON *v = h_view(s, -1);
    char *out = scratch();
    const char *f = h_json_string(v, "frame");
    snprintf(out, 64, "%s", f ? f : "(none)");
    cJSON_Delete(v);
    return out;
}

static int played_out(const tafel_state *s, const char *code) {
    cJSON *v = h_view(s, -1);
    const cJSON *it = cJSON_GetObjectItem(cJSON_GetObjectItem(v, "played_out"), code);
    int n = cJSON_IsNumber(it) ? it->valueint : 0;
    cJSON_Delete(v);
    return n;
}

/* A token's holder in the view: a seat, or -1 for null. */
static int token_of(const tafel_state *s, const char *key) {
    cJSON *v = h_view(s, -1);
    const cJSON *it = cJSON_GetObjectItem(v, key);
    int n = cJSON_IsNumber(it) ? it->valueint : -1;
    cJSON_Delete(v);
    return n;
}

static const char *stocks(tafel_state *s, int seat) {
    char *out = scratch();
    size_t used = 0;
    for (int r = 0; r < CT_RES; r++)
        used += (size_t)snprintf(out + used, 64 - used, "%s%s%d", r ? " " : "", ct_res_codes[r],
                                 ct_stock(ct_data(s), seat, r));
    return out;
}

static void set_stock(tafel_state *s, int seat, int l, int w, int b, int o, int g, int au) {
    const int st[CT_RES] = {l, w, b, o, g, au};
    ct_set_stock(s, seat, st);
}

/* The card on seat's site (col,row), or "-". */
static const char *site_at(tafel_state *s, int seat, int col, int row) {
    int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
    int t = ct_data(s)->p[seat].site[col + CT_COL0][ri];
    return t == CT_NONE ? "-" : ct_cards[t].code;
}

/* The region at (col,row) of seat: "gold3:0" (card and stock), or "-". */
static const char *region_at(tafel_state *s, int seat, int col, int row) {
    const ct_region *g = &ct_data(s)->p[seat].region[col + CT_COL0][row > 0];
    char *out = scratch();
    if (g->card == CT_NONE) snprintf(out, 64, "-");
    else snprintf(out, 64, "%s:%d", ct_region_cards[g->card].name, g->stock);
    return out;
}

static void assert_legal(const tafel_state *s, const char *text) {
    if (!h_legal_text(s, text)) fail_msg("'%s' should be legal now (frame %s)", text, frame_now(s));
}

static void assert_not_legal(const tafel_state *s, const char *text) {
    if (h_legal_text(s, text))
        fail_msg("'%s' should not be legal now (frame %s)", text, frame_now(s));
}

/* Every card still accounted for, then free. */
static void finish(tafel_state *s) {
    tafel_error err = {0};
    if (tafel_state_check(s, &err) != TAFEL_OK) fail_msg("state check: %s", err.message);
    disown(s);
    tafel_state_free(s);
}

/* Resampling for either seat leaves that seat's view byte for byte as it
** was, and the state still holds every card (view.c: only what the seat
** cannot see is permuted). */
static void assert_resample_keeps_views(const tafel_state *s) {
    for (int seat = 0; seat < 2; seat++) {
        char *before = tafel_state_view_json(s, seat);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            tafel_state *r = own(tafel_state_clone(s));
            uint64_t rng = tafel_rng_seed(seed * 7 + (uint64_t)seat);
            assert_int_equal(tafel_state_resample(r, seat, &rng), TAFEL_OK);
            char *after = tafel_state_view_json(r, seat);
            if (strcmp(before, after))
                fail_msg("resampling for seat %d changed its view:\n%s\n%s", seat, before, after);
            free(after);
            finish(r);
        }
        free(before);
    }
}

/* Two quiet turns: seat 0 is about to roll its second turn (turn 3). */
static void to_turn3(tafel_state *s) {
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    assert_int_equal(h_view_int(s, "turn"), 3);
    assert_int_equal(tafel_state_current(s), 0);
}

/* Turn 3, seat 0's main phase, every region of both players holding 1. */
static void main3(tafel_state *s) {
    to_turn3(s);
    run(s, "0 roll; c die 3; c event-die trade");
    assert_string_equal(frame_now(s), "main");
    set_stock(s, 0, 1, 1, 1, 1, 1, 1);
    set_stock(s, 1, 1, 1, 1, 1, 1, 1);
}

/* ============================================================ Alchemist */

/* Rules §2: "Alchemist: play before rolling: you choose the production
** die's number." No production die is rolled; the event die still is. */
static void test_alchemist_chooses_the_production_number_instead_of_rolling(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("alchemist spy caravan", "bishop herb-witch merchant");
    to_turn3(s);
    set_stock(s, 0, 1, 1, 1, 1, 1, 1);
    set_stock(s, 1, 1, 1, 1, 1, 1, 1);
    run(s, "0 alchemist 4");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_string_equal(frame_now(s), "event-die");
    run(s, "c event-die trade");
    /* 4: seat 0's forest4, seat 1's pasture4 */
    assert_string_equal(stocks(s, 0), "L2 W1 B1 O1 G1 Au1");
    assert_string_equal(stocks(s, 1), "L1 W2 B1 O1 G1 Au1");
    assert_int_equal(h_view_int(s, "die"), 4);
    assert_int_equal(played_out(s, "alchemist"), 1);
    assert_int_equal(ct_hand_count(s, 0, "alchemist"), 0);
    finish(s);
}

/* Seed: "de actiekaarten ... mogen slechts uitgespeeld worden nadat elke
** speler reeds eens aan de beurt kwam": not in turns 1 and 2. */
static void test_alchemist_cannot_be_played_before_both_players_had_a_turn(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("alchemist spy caravan", "alchemist herb-witch merchant");
    assert_not_legal(s, "alchemist 4");
    h_refused(s, "alchemist 4", TAFEL_EILLEGAL);
    ct_quiet_turn(s, 0);
    assert_not_legal(s, "alchemist 4"); /* seat 1's first turn */
    ct_quiet_turn(s, 1);
    assert_legal(s, "alchemist 4"); /* turn 3 */
    finish(s);
}

/* Rules §2: the Alchemist is played before rolling, not in the main phase. */
static void test_alchemist_is_not_playable_after_the_roll(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("alchemist spy caravan", "bishop herb-witch merchant");
    main3(s);
    assert_not_legal(s, "play alchemist");
    assert_not_legal(s, "alchemist 2");
    finish(s);
}

/* ============================================================= Arsonist */

/* Rules §2: Arsonist success (duel 1-5): a building of the opponent's,
** chosen by the attacker, goes back to his hand; units are not buildings.
** The returned card is public. */
static void test_arsonist_success_returns_a_building_chosen_by_the_attacker(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist siegfried hagen", "bishop caravan merchant");
    main3(s);
    ct_put_site(s, 1, "abbey", 0, -1);
    ct_put_site(s, 1, "garrison", 2, 1);
    ct_put_site(s, 1, "conrad", 2, -1);
    run(s, "0 play arsonist; 1 no-counter; c duel 5");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "pick");
    assert_legal(s, "pick 0 -1");
    assert_legal(s, "pick 2 1");
    assert_not_legal(s, "pick 2 -1"); /* Conrad is a unit */
    run(s, "0 pick 2 1");
    assert_string_equal(site_at(s, 1, 2, 1), "-");
    assert_string_equal(site_at(s, 1, 0, -1), "abbey");
    assert_string_equal(hand_seen(s, 1, 1), "bishop caravan merchant garrison");
    assert_string_equal(hand_seen(s, 0, 1), "? ? ? garrison");
    assert_string_equal(frame_now(s), "main"); /* 4 cards, limit 4 with the Abbey */
    assert_int_equal(played_out(s, "arsonist"), 1);
    finish(s);
}

/* Rules §2: Arsonist backfire (duel 6): one of the attacker's buildings,
** chosen by the defender, goes back to the attacker's hand. */
static void test_arsonist_backfire_returns_an_own_building_chosen_by_the_defender(
    void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist siegfried hagen", "bishop caravan merchant");
    main3(s);
    ct_put_site(s, 0, "garrison", 0, -1);
    ct_put_site(s, 0, "smithy", 2, -1);
    ct_put_site(s, 0, "conrad", 0, 1);
    ct_put_site(s, 1, "abbey", 0, -1);
    run(s, "0 play arsonist; 1 no-counter; c duel 6");
    assert_int_equal(tafel_state_current(s), 1);
    assert_legal(s, "pick 0 -1");
    assert_legal(s, "pick 2 -1");
    assert_not_legal(s, "pick 0 1"); /* Conrad */
    run(s, "1 pick 2 -1");
    assert_string_equal(site_at(s, 0, 2, -1), "-");
    assert_string_equal(site_at(s, 1, 0, -1), "abbey");
    assert_string_equal(hand_seen(s, 0, 0), "siegfried hagen smithy");
    assert_string_equal(hand_seen(s, 1, 0), "? ? smithy");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* Rules §2: countered by a Bishop, the duel succeeds only on 1-2 and
** backfires on 3-6; the Bishop leaves the game too. */
static void test_a_bishop_lets_an_arsonist_succeed_only_on_1_or_2(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist siegfried hagen", "bishop caravan merchant");
    main3(s);
    ct_put_site(s, 0, "garrison", 0, -1);
    ct_put_site(s, 1, "abbey", 0, -1);
    run(s, "0 play arsonist; 1 play bishop");
    assert_int_equal(played_out(s, "bishop"), 1);
    assert_int_equal(ct_hand_count(s, 1, "bishop"), 0);
    tafel_state *two = own(tafel_state_clone(s));
    run(two, "c duel 2");
    assert_int_equal(tafel_state_current(two), 0); /* success: the attacker picks */
    run(two, "0 pick 0 -1");
    assert_string_equal(site_at(two, 1, 0, -1), "-");
    assert_string_equal(site_at(two, 0, 0, -1), "garrison");
    run(s, "c duel 3");
    assert_int_equal(tafel_state_current(s), 1); /* backfire: the defender picks */
    run(s, "1 pick 0 -1");
    assert_string_equal(site_at(s, 0, 0, -1), "-");
    assert_string_equal(site_at(s, 1, 0, -1), "abbey");
    assert_int_equal(ct_hand_count(s, 0, "garrison"), 1);
    finish(two);
    finish(s);
}

/* Rules §2: "An attack may be played only if it can take effect": an
** Arsonist needs a building of the opponent's (a knight is a unit). */
static void test_arsonist_needs_an_opposing_building(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist siegfried hagen", "bishop caravan merchant");
    main3(s);
    ct_put_site(s, 1, "conrad", 0, -1);
    ct_put_site(s, 1, "fleet-ore", 2, -1);
    assert_not_legal(s, "play arsonist");
    ct_put_site(s, 1, "garrison", 0, 1); /* any building will do */
    assert_legal(s, "play arsonist");
    finish(s);
}

/* ========================================================= Black knight */

/* Rules §2: Black knight success: an opposing knight, the attacker's
** choice, goes back to its owner's hand (only knights may be picked). */
static void test_black_knight_success_sends_an_opposing_knight_back_to_hand(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("black-knight spy caravan", "herb-witch bishop merchant");
    main3(s);
    ct_put_site(s, 1, "hagen", 0, -1);
    ct_put_site(s, 1, "fleet-wool", 0, 1);
    ct_put_site(s, 1, "garrison", 2, 1);
    assert_int_equal(token_of(s, "knight_token"), 1);
    run(s, "0 play black-knight; 1 no-counter; c duel 1");
    assert_int_equal(tafel_state_current(s), 0);
    assert_legal(s, "pick 0 -1");
    assert_not_legal(s, "pick 0 1"); /* a fleet is a unit, not a knight */
    assert_not_legal(s, "pick 2 1");
    run(s, "0 pick 0 -1");
    assert_string_equal(hand_seen(s, 0, 1), "? ? ? hagen");
    assert_int_equal(token_of(s, "knight_token"), -1); /* 0 : 0, set aside */
    assert_int_equal(played_out(s, "black-knight"), 1);
    finish(s);
}

/* Rules §2: countered by a Herb witch, 3-6 backfire: one of the attacker's
** knights, the defender's choice, goes back to the attacker's hand. */
static void test_herb_witch_turns_a_black_knight_roll_of_3_into_a_backfire(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("black-knight spy caravan", "herb-witch bishop merchant");
    main3(s);
    ct_put_site(s, 1, "hagen", 0, -1);
    ct_put_site(s, 0, "conrad", 2, -1);
    assert_int_equal(token_of(s, "knight_token"), 0); /* 2 : 1 */
    run(s, "0 play black-knight");
    assert_not_legal(s, "play bishop"); /* the Bishop answers Arsonist and Brigands */
    run(s, "1 play herb-witch; c duel 3");
    assert_int_equal(tafel_state_current(s), 1);
    run(s, "1 pick 2 -1");
    assert_string_equal(site_at(s, 0, 2, -1), "-");
    assert_string_equal(site_at(s, 1, 0, -1), "hagen");
    assert_string_equal(hand_seen(s, 0, 0), "spy caravan conrad");
    assert_int_equal(token_of(s, "knight_token"), 1);
    assert_int_equal(played_out(s, "herb-witch"), 1);
    finish(s);
}

/* Rules §2: with a Herb witch only 1-2 succeed. */
static void test_herb_witch_still_lets_a_black_knight_succeed_on_2(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("black-knight spy caravan", "herb-witch bishop merchant");
    main3(s);
    ct_put_site(s, 1, "hagen", 0, -1);
    run(s, "0 play black-knight; 1 play herb-witch; c duel 2");
    assert_int_equal(tafel_state_current(s), 0);
    run(s, "0 pick 0 -1");
    assert_string_equal(site_at(s, 1, 0, -1), "-");
    finish(s);
}

/* Rules §2: a Black knight needs an opposing knight. */
static void test_black_knight_needs_an_opposing_knight(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("black-knight spy caravan", "herb-witch bishop merchant");
    main3(s);
    ct_put_site(s, 1, "fleet-wool", 0, -1);
    ct_put_site(s, 1, "garrison", 2, -1);
    ct_put_site(s, 0, "conrad", 0, -1);
    assert_not_legal(s, "play black-knight");
    finish(s);
}

/* ============================================================= Brigands */

/* Rules §2: Brigands success: take 2 resources of your choice. */
static void test_brigands_success_takes_two_resources_of_the_attackers_choice(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("brigands spy caravan", "bishop herb-witch merchant");
    main3(s);
    set_stock(s, 1, 0, 2, 0, 3, 1, 0);
    run(s, "0 play brigands; 1 no-counter; c duel 4");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "take");
    assert_not_legal(s, "take L"); /* seat 1 has none */
    run(s, "0 take O; 0 take O");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O3 G1 Au1");
    assert_string_equal(stocks(s, 1), "L0 W2 B0 O1 G1 Au0");
    assert_string_equal(frame_now(s), "main");
    assert_int_equal(played_out(s, "brigands"), 1);
    finish(s);
}

/* Rules §2: Brigands backfire: the defender takes 2 of his choice. */
static void test_brigands_backfire_lets_the_defender_take_two(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("brigands spy caravan", "bishop herb-witch merchant");
    main3(s);
    run(s, "0 play brigands; 1 no-counter; c duel 6");
    assert_int_equal(tafel_state_current(s), 1);
    run(s, "1 take L; 1 take Au");
    assert_string_equal(stocks(s, 0), "L0 W1 B1 O1 G1 Au0");
    assert_string_equal(stocks(s, 1), "L2 W1 B1 O1 G1 Au2");
    assert_int_equal(tafel_state_current(s), 0);
    finish(s);
}

/* Rules §2: Brigands are countered by a Bishop (3 backfires, 2 succeeds),
** not by a Herb witch. */
static void test_a_bishop_counters_brigands(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("brigands spy caravan", "bishop herb-witch merchant");
    main3(s);
    run(s, "0 play brigands");
    assert_not_legal(s, "play herb-witch");
    run(s, "1 play bishop");
    tafel_state *two = own(tafel_state_clone(s));
    run(two, "c duel 2");
    assert_int_equal(tafel_state_current(two), 0);
    run(s, "c duel 3");
    assert_int_equal(tafel_state_current(s), 1);
    finish(two);
    finish(s);
}

/* Rules §2: Brigands need an opponent with something to take. */
static void test_brigands_need_an_opponent_with_resources(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("brigands spy caravan", "bishop herb-witch merchant");
    main3(s);
    set_stock(s, 1, 0, 0, 0, 0, 0, 0);
    assert_not_legal(s, "play brigands");
    finish(s);
}

/* ==================================================== Bishop, Herb witch */

/* Rules §2: Bishop and Herb witch are counter cards only. */
static void test_bishop_and_herb_witch_are_not_playable_in_the_main_phase(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("bishop herb-witch caravan", "spy merchant alchemist");
    main3(s);
    assert_not_legal(s, "play bishop");
    assert_not_legal(s, "play herb-witch");
    finish(s);
}

/* ============================================================== Caravan */

/* Rules §2: Caravan: exchange up to 2 resources 1:1 with the bank. */
static void test_caravan_swaps_two_resources_one_for_one(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("caravan spy merchant", "bishop herb-witch alchemist");
    main3(s);
    run(s, "0 play caravan");
    assert_string_equal(frame_now(s), "caravan");
    run(s, "0 swap L O; 0 swap W O");
    assert_string_equal(stocks(s, 0), "L0 W0 B1 O3 G1 Au1");
    assert_string_equal(frame_now(s), "main"); /* no third swap */
    assert_int_equal(played_out(s, "caravan"), 1);
    finish(s);
}

static void test_caravan_may_stop_after_one_swap(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("caravan spy merchant", "bishop herb-witch alchemist");
    main3(s);
    run(s, "0 play caravan; 0 swap Au G; 0 done");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G2 Au0");
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* ============================================================= Merchant */

/* Rules §2: Merchant: take up to 2 resources of your choice from the
** opponent, then give him 1 of your choice. */
static void test_merchant_takes_two_then_gives_one(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("merchant spy caravan", "bishop herb-witch alchemist");
    main3(s);
    set_stock(s, 1, 0, 2, 0, 3, 1, 0);
    run(s, "0 play merchant; 0 take O; 0 take W");
    assert_string_equal(frame_now(s), "merchant-give");
    run(s, "0 give L");
    assert_string_equal(stocks(s, 0), "L0 W2 B1 O2 G1 Au1");
    assert_string_equal(stocks(s, 1), "L1 W1 B0 O2 G1 Au0");
    assert_string_equal(frame_now(s), "main");
    assert_int_equal(played_out(s, "merchant"), 1);
    finish(s);
}

static void test_merchant_may_take_only_one(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("merchant spy caravan", "bishop herb-witch alchemist");
    main3(s);
    run(s, "0 play merchant; 0 take O; 0 done; 0 give G");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O2 G0 Au1");
    assert_string_equal(stocks(s, 1), "L1 W1 B1 O0 G2 Au1");
    finish(s);
}

/* ================================================================ Scout */

/* Rules §2: Scout: "play when building a settlement: choose its 2 regions
** from the region stack, then shuffle the stack" (the shuffle is dealt by
** chance, 9 cards). */
static void test_scout_chooses_the_new_regions_then_the_stack_is_reshuffled(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("scout spy caravan", "bishop herb-witch merchant");
    main3(s);
    set_stock(s, 0, 2, 1, 3, 0, 1, 0); /* a road (2B L), a settlement (B L W G) */
    run(s, "0 road left");
    assert_not_legal(s, "play scout"); /* only with a settlement */
    run(s, "0 settlement left scout");
    assert_string_equal(frame_now(s), "scout");
    assert_string_equal(list_seen(s, 0, "region_stack"),
                        "fields3 fields4 mountains4 mountains5 pasture5 pasture6 forest6 "
                        "forest1 hills1 hills2 gold3");
    assert_string_equal(list_seen(s, 1, "region_stack"), "? ? ? ? ? ? ? ? ? ? ?");
    assert_resample_keeps_views(s);
    run(s, "0 choose gold3; 0 choose hills2; 0 above gold3");
    int deals = 0;
    const char *order[9] = {"forest1", "fields3", "fields4",  "mountains4", "mountains5",
                            "pasture5", "pasture6", "forest6", "hills1"};
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        assert_true(deals < 9);
        char text[32];
        snprintf(text, sizeof text, "regions %s", order[deals++]);
        run(s, text);
    }
    assert_int_equal(deals, 9);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(region_at(s, 0, -3, -1), "gold3:0");
    assert_string_equal(region_at(s, 0, -3, 1), "hills2:0");
    assert_string_equal(list_seen(s, 0, "region_stack"), "? ? ? ? ? ? ? ? ?");
    assert_int_equal(played_out(s, "scout"), 1);
    assert_int_equal(ct_points(s, 0), 3);
    finish(s);
}

/* Rules §4.3: without a Scout the settlement takes the top 2 regions. */
static void test_a_settlement_without_scout_takes_the_top_two_regions(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("scout spy caravan", "bishop herb-witch merchant");
    main3(s);
    set_stock(s, 0, 2, 1, 3, 0, 1, 0);
    run(s, "0 road left; 0 settlement left; 0 above fields4");
    assert_string_equal(region_at(s, 0, -3, -1), "fields4:0");
    assert_string_equal(region_at(s, 0, -3, 1), "fields3:0");
    assert_int_equal(ct_hand_count(s, 0, "scout"), 1);
    finish(s);
}

/* ================================================================== Spy */

/* Rules §2: Spy: look at the opponent's hand (the spy's view shows it, no
** one else's) and take 1 unit or action card from it, not a building. */
static void test_spy_sees_the_opponents_hand_and_takes_a_unit_or_action_card(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop conrad garrison");
    main3(s);
    assert_string_equal(hand_seen(s, 0, 1), "? ? ?");
    run(s, "0 play spy");
    assert_string_equal(frame_now(s), "spy");
    assert_string_equal(hand_seen(s, 0, 1), "bishop conrad garrison");
    assert_string_equal(hand_seen(s, -1, 1), "? ? ?");
    assert_legal(s, "take bishop");
    assert_legal(s, "take conrad");
    assert_not_legal(s, "take garrison");
    run(s, "0 take conrad");
    assert_string_equal(hand_seen(s, 0, 0), "caravan merchant conrad");
    assert_string_equal(hand_seen(s, 1, 0), "? ? conrad");
    assert_string_equal(hand_seen(s, 0, 1), "bishop garrison");
    assert_string_equal(hand_seen(s, -1, 1), "? ?");
    assert_resample_keeps_views(s);
    assert_int_equal(played_out(s, "spy"), 1);
    finish(s);
}

static void test_spy_may_take_nothing(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop conrad garrison");
    main3(s);
    run(s, "0 play spy; 0 done");
    assert_string_equal(hand_seen(s, 1, 1), "bishop conrad garrison");
    assert_string_equal(hand_seen(s, 0, 0), "caravan merchant");
    finish(s);
}

/* Rules §2: a Spy needs an opponent with cards in hand. */
static void test_spy_needs_cards_in_the_opponents_hand(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop conrad garrison");
    main3(s);
    ct_state *d = ct_data(s);
    while (d->p[1].hand_len) ct_put_under(d, 1, 0, 4);
    assert_not_legal(s, "play spy");
    finish(s);
}

/* Seed: "Uitgespeelde actiekaarten worden opzij gelegd. Ze kunnen niet meer
** tijdens het spel ingezet worden." */
static void test_played_action_cards_leave_the_game(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop conrad garrison");
    main3(s);
    run(s, "0 play caravan; 0 done; 0 play merchant; 0 take O; 0 done; 0 give L");
    cJSON *v = h_view(s, 1);
    char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(v, "played_out"));
    assert_string_equal(text, "{\"caravan\":1,\"merchant\":1}");
    free(text);
    cJSON_Delete(v);
    assert_int_equal(ct_data(s)->p[0].hand_len, 1);
    finish(s);
}

/* ================================================================ Events */

/* Rules §3 Civil war: each player's opponent picks one of that player's
** units (the roller's opponent is hit first, so the roller picks first),
** it goes back to hand; then both discard down to the hand limit. */
static void test_civil_war_sends_one_unit_of_each_player_back_and_both_discard(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("civil-war", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "conrad", 0, -1);
    ct_put_site(s, 0, "fleet-ore", 2, 1);
    ct_put_site(s, 1, "hagen", 0, -1);
    ct_put_site(s, 1, "fleet-wool", 2, -1);
    ct_put_site(s, 1, "garrison", 0, 1);
    run(s, "0 roll; c die 3; c event-die event");
    assert_string_equal(frame_now(s), "pick");
    assert_int_equal(tafel_state_current(s), 0); /* seat 1 is hit first: seat 0 picks */
    assert_legal(s, "pick 0 -1");
    assert_legal(s, "pick 2 -1");
    assert_not_legal(s, "pick 0 1"); /* a Garrison is a building */
    run(s, "0 pick 2 -1");
    assert_int_equal(tafel_state_current(s), 1);
    assert_legal(s, "pick 0 -1");
    assert_legal(s, "pick 2 1");
    run(s, "1 pick 0 -1");
    /* both hold 4 cards, limit 3: both discard at once (seed: "gelijk") */
    for (int i = 0; i < 2; i++) {
        assert_string_equal(frame_now(s), "discard");
        run(s, tafel_state_current(s) == 0 ? "0 discard conrad 4" : "1 discard fleet-wool 5");
    }
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(hand_seen(s, 0, 0), "spy caravan merchant");
    assert_string_equal(hand_seen(s, 1, 1), "bishop herb-witch alchemist");
    assert_string_equal(stack_bottom(s, 0, 4), "conrad");
    assert_string_equal(stack_bottom(s, 1, 4), "conrad"); /* it came back face up */
    assert_int_equal(token_of(s, "knight_token"), 1);    /* Hagen 1 : 0 */
    assert_resample_keeps_views(s);
    finish(s);
}

/* Rules §3 / §2 Church: Civil war cannot take a unit standing at a city
** with a Church. */
static void test_civil_war_cannot_take_a_unit_at_a_city_with_a_church(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("civil-war", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_make_city(s, 1, 0);
    ct_put_site(s, 1, "church", 0, -2);
    ct_put_site(s, 1, "hagen", 0, 1);
    ct_put_site(s, 1, "fleet-wool", 2, -1);
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 0);
    assert_not_legal(s, "pick 0 1");
    run(s, "0 pick 2 -1"); /* seat 0 has no unit: nothing to pick */
    run(s, "1 discard fleet-wool 3");
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(site_at(s, 1, 0, 1), "hagen");
    finish(s);
}

static void test_civil_war_passes_over_a_player_whose_only_unit_is_protected(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("civil-war", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_make_city(s, 1, 2);
    ct_put_site(s, 1, "church", 2, 2);
    ct_put_site(s, 1, "hagen", 2, -1);
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(site_at(s, 1, 2, -1), "hagen");
    finish(s);
}

/* Rules §3 Conflict: the knight-token holder looks at the opponent's hand
** and puts 2 cards of it, his choice, under stacks of his choice. */
static void test_conflict_lets_the_knight_token_holder_put_two_opposing_cards_under(
    void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("conflict", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 1, "hagen", 0, -1);
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "conflict");
    assert_string_equal(hand_seen(s, 1, 0), "spy caravan merchant");
    assert_string_equal(hand_seen(s, -1, 0), "? ? ?");
    run(s, "1 under spy 4; 1 under merchant 5");
    assert_resample_keeps_views(s);
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(hand_seen(s, 0, 0), "caravan");
    assert_string_equal(stack_bottom(s, 0, 4), "spy");
    assert_string_equal(stack_bottom(s, 1, 4), "spy");
    assert_string_equal(stack_bottom(s, -1, 4), "?");
    assert_string_equal(stack_bottom(s, 1, 5), "merchant");
    assert_resample_keeps_views(s);
    finish(s);
}

static void test_conflict_without_a_knight_token_does_nothing(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("conflict", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "hagen", 0, -1);
    ct_put_site(s, 1, "siegfried", 0, -1); /* 1 : 1, the token is set aside */
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(hand_seen(s, 1, 0), "? ? ?");
    finish(s);
}

/* Rules §3 Master builder: each player, roller first, may search one stack
** (for free), take a card and put one hand card into it. */
static void test_master_builder_lets_each_player_search_a_stack_for_free(void **unused) {
    (void)unused;
    const char *tops[5] = {"spy caravan merchant", "bishop herb-witch alchemist",
                           "colossus mint harbor", NULL, NULL};
    tafel_state *s = ct_game_with("catan_cards", tops, NULL, ct_events_first("master-builder"),
                                  "spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "master-builder");
    run(s, "0 search 3");
    assert_string_equal(frame_now(s), "master-take"); /* nothing to pay */
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G1 Au1");
    assert_true(!strncmp(stack_seen(s, 0, 3), "colossus mint harbor ", 21));
    run(s, "0 take mint; 0 put spy 3");
    assert_string_equal(hand_seen(s, 0, 0), "caravan merchant mint");
    assert_true(!strncmp(stack_seen(s, 0, 3), "colossus harbor ", 16));
    assert_string_equal(stack_bottom(s, 0, 3), "spy");
    assert_string_equal(stack_bottom(s, 1, 3), "?");
    assert_int_equal(tafel_state_current(s), 1);
    assert_resample_keeps_views(s);
    assert_string_equal(frame_now(s), "master-builder");
    run(s, "1 pass");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(stocks(s, 0), "L1 W2 B1 O1 G1 Au1"); /* production after the event */
    finish(s);
}

/* Rules §3 Plague: each region bordering one of your cities loses 1, once
** even if it borders two. */
static void test_plague_takes_one_from_each_region_next_to_a_city(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("plague", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_make_city(s, 1, 0);
    set_stock(s, 0, 2, 2, 2, 2, 2, 2);
    set_stock(s, 1, 2, 2, 2, 2, 2, 2);
    run(s, "0 roll; c die 6; c event-die event");
    /* seat 0: every region loses 1 (column 1 borders both cities: once);
    ** then 6 produces on its gold6 */
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G1 Au2");
    /* seat 1: the four regions beside the city at 0; then hills6 */
    assert_string_equal(stocks(s, 1), "L1 W2 B2 O1 G1 Au2");
    finish(s);
}

/* Rules §3 Productive year: each region gains 1 per bordering Garrison
** (max 3). */
static void test_productive_year_gives_one_per_bordering_garrison(void **unused) {
    (void)unused;
    tafel_state *s = ct_event_game("productive-year", "spy caravan merchant",
                                "bishop herb-witch alchemist");
    ct_put_site(s, 0, "garrison", 0, -1); /* fields, mountains */
    ct_put_site(s, 0, "garrison", 2, -1); /* mountains, pasture */
    ct_put_site(s, 1, "garrison", 0, 1);  /* forest, hills */
    set_stock(s, 0, 1, 1, 1, 2, 1, 1);
    set_stock(s, 1, 1, 1, 1, 1, 1, 1);
    run(s, "0 roll; c die 6; c event-die event");
    /* mountains 2 + 2 = 4, kept at 3; then gold6 */
    assert_string_equal(stocks(s, 0), "L1 W2 B1 O3 G2 Au2");
    /* forest and hills +1; then hills6 */
    assert_string_equal(stocks(s, 1), "L2 W1 B3 O1 G1 Au1");
    finish(s);
}

/* Rules §3 Progress: 1 resource of your choice per Abbey and per Library. */
static void test_progress_gives_a_resource_per_abbey_and_library(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("progress", "spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "abbey", 0, -1);
    ct_make_city(s, 1, 2);
    ct_put_site(s, 1, "abbey", 0, 1);
    ct_put_site(s, 1, "library", 2, 2);
    run(s, "0 roll; c die 6; c event-die event");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "gain");
    run(s, "0 gain O");
    assert_int_equal(tafel_state_current(s), 1);
    run(s, "1 gain W; 1 gain G");
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O2 G1 Au2");
    assert_string_equal(stocks(s, 1), "L1 W2 B2 O1 G2 Au1");
    finish(s);
}

static void test_progress_gives_nothing_without_abbey_or_library(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("progress", "spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 6; c event-die event");
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G1 Au2");
    finish(s);
}

/* Rules §3 Year end: the whole event deck, this card included, is
** reshuffled (dealt again by 10 chance actions); the new order holds. */
static void test_year_end_reshuffles_the_whole_event_deck(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("year-end", "spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), TAFEL_CHANCE);
    assert_string_equal(frame_now(s), "deal-events");
    tafel_action out[16];
    double prob[16];
    assert_int_equal(tafel_state_chance_outcomes(s, out, prob, 16), 7); /* 7 kinds */
    assert_resample_keeps_views(s);
    static const char *const order[10] = {"master-builder", "year-end", "plague", "plague",
                                          "progress", "progress", "productive-year",
                                          "productive-year", "conflict", "civil-war"};
    int deals = 0;
    while (tafel_state_current(s) == TAFEL_CHANCE) {
        assert_true(deals < 10);
        char text[48];
        snprintf(text, sizeof text, "events %s", order[deals++]);
        run(s, text);
    }
    assert_int_equal(deals, 10);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(list_seen(s, 0, "event_deck"), "? ? ? ? ? ? ? ? ? ?");
    run(s, "0 end; 0 done; 1 roll; c die 3; c event-die event");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "master-builder");
    finish(s);
}

/* Seed: "Daarna schuif je de kaart onderaan de stapel": the event card goes
** under the deck, face known to both. */
static void test_an_event_card_goes_under_the_event_deck(void **unused) {
    (void)unused;
    tafel_state *s =
        ct_event_game("plague", "spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die event");
    assert_string_equal(list_seen(s, 1, "event_deck"), "? ? ? ? ? ? ? ? ? plague");
    assert_resample_keeps_views(s);
    finish(s);
}

/* ============================================================ Event die */

/* Rules §3: the event die shows the event card on two of six faces. */
static void test_the_event_die_has_two_event_faces(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3");
    tafel_action out[8];
    double prob[8];
    assert_int_equal(tafel_state_chance_outcomes(s, out, prob, 8), 5);
    for (int i = 0; i < 5; i++) {
        char text[48];
        h_text(s, out[i], text, sizeof text);
        double want = strcmp(text, "event-die event") ? 1.0 / 6 : 2.0 / 6;
        assert_true(prob[i] > want - 1e-9 && prob[i] < want + 1e-9);
    }
    finish(s);
}

/* Rules §3 Tournament: strictly more tournament points: gain 1 of choice. */
static void test_tournament_gives_the_player_with_more_tournament_points_a_resource(
    void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "conrad", 0, -1); /* tournament 1 */
    ct_put_site(s, 1, "pippin", 0, -1); /* tournament 3 */
    run(s, "0 roll; c die 3; c event-die tournament");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "gain");
    run(s, "1 gain L");
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(stocks(s, 1), "L2 W1 B1 O2 G1 Au1"); /* + mountains3 */
    assert_string_equal(stocks(s, 0), "L1 W2 B1 O1 G1 Au1"); /* pasture3 */
    finish(s);
}

static void test_a_tied_tournament_gives_nothing(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "hagen", 0, -1); /* tournament 2 */
    ct_put_site(s, 1, "otto", 0, -1);  /* tournament 2 */
    run(s, "0 roll; c die 3; c event-die tournament");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* Rules §3 Trade advantage / seed "handelsvoordeel": the windmill holder
** takes 1 resource of his choice from the opponent. */
static void test_trade_advantage_lets_the_windmill_holder_take_a_resource(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    ct_make_city(s, 0, 0);
    ct_put_site(s, 0, "garrison", 2, -1); /* 1 trade point */
    assert_int_equal(token_of(s, "windmill"), 0);
    set_stock(s, 1, 0, 0, 0, 2, 0, 0);
    run(s, "0 roll; c die 1; c event-die trade");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "take");
    assert_not_legal(s, "take L");
    run(s, "0 take O");
    /* then 1 produces: seat 0's fields1, seat 1's gold1 */
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O2 G2 Au1");
    assert_string_equal(stocks(s, 1), "L0 W0 B0 O1 G0 Au1");
    finish(s);
}

/* The windmill needs a city (seed: "een speler moet over een stad
** beschikken"), so without one the face does nothing. */
static void test_trade_advantage_without_a_windmill_holder_does_nothing(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "garrison", 2, -1);
    assert_int_equal(token_of(s, "windmill"), -1);
    run(s, "0 roll; c die 1; c event-die trade");
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* Seed "roofoverval": more than 7 resources: all ore and wool are lost.
** The event comes before production (seed: 1. event, 2. production). */
static void test_brigand_attack_takes_all_ore_and_wool_above_seven(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    set_stock(s, 0, 1, 2, 1, 3, 1, 0); /* 8 */
    set_stock(s, 1, 1, 2, 1, 2, 1, 0); /* 7: safe */
    run(s, "0 roll; c die 4; c event-die brigand");
    /* then 4 produces: seat 0's forest4, seat 1's pasture4 (now 8: too late) */
    assert_string_equal(stocks(s, 0), "L2 W0 B1 O0 G1 Au0");
    assert_string_equal(stocks(s, 1), "L1 W3 B1 O2 G1 Au0");
    finish(s);
}

/* Rules §2 Garrison / seed: regions a Garrison protects do not count, and
** keep their resources. */
static void test_brigand_attack_ignores_regions_protected_by_a_garrison(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    ct_put_site(s, 0, "garrison", 0, -1); /* fields, mountains */
    ct_put_site(s, 1, "garrison", 0, -1);
    set_stock(s, 0, 3, 3, 3, 3, 3, 0); /* 15, 9 unprotected */
    set_stock(s, 1, 2, 2, 2, 3, 3, 0); /* 12, 6 unprotected */
    run(s, "0 roll; c die 4; c event-die brigand");
    assert_string_equal(stocks(s, 0), "L3 W0 B3 O3 G3 Au0");
    assert_string_equal(stocks(s, 1), "L2 W3 B2 O3 G3 Au0");
    finish(s);
}

/* Rules §3 Good year: each player gains 1 of his choice, roller first. */
static void test_good_year_gives_each_player_a_resource_roller_first(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die good-year");
    assert_int_equal(tafel_state_current(s), 0);
    run(s, "0 gain B; 1 gain G");
    assert_string_equal(stocks(s, 0), "L1 W2 B2 O1 G1 Au1");
    assert_string_equal(stocks(s, 1), "L1 W1 B1 O2 G2 Au1");
    run(s, "0 end; 0 done; 1 roll; c die 5; c event-die good-year");
    assert_int_equal(tafel_state_current(s), 1);
    run(s, "1 gain W; 0 gain W");
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* Rules §3 Production / seed "De grondstofopbrengst boeken": every region of
** both players showing the number gains 1. */
static void test_each_production_number_produces_on_its_regions_for_both(void **unused) {
    (void)unused;
    static const char *const want[6][2] = {
        {"L1 W1 B1 O1 G2 Au1", "L1 W1 B1 O1 G1 Au2"}, /* fields1, gold1 */
        {"L1 W1 B1 O2 G1 Au1", "L1 W1 B1 O1 G2 Au1"}, /* mountains2, fields2 */
        {"L1 W2 B1 O1 G1 Au1", "L1 W1 B1 O2 G1 Au1"}, /* pasture3, mountains3 */
        {"L2 W1 B1 O1 G1 Au1", "L1 W2 B1 O1 G1 Au1"}, /* forest4, pasture4 */
        {"L1 W1 B2 O1 G1 Au1", "L2 W1 B1 O1 G1 Au1"}, /* hills5, forest5 */
        {"L1 W1 B1 O1 G1 Au2", "L1 W1 B2 O1 G1 Au1"}, /* gold6, hills6 */
    };
    tafel_state *base = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(base, "0 roll");
    for (int n = 1; n <= 6; n++) {
        tafel_state *s = own(tafel_state_clone(base));
        char text[16];
        snprintf(text, sizeof text, "die %d", n);
        run(s, text);
        run(s, "c event-die trade");
        assert_string_equal(stocks(s, 0), want[n - 1][0]);
        assert_string_equal(stocks(s, 1), want[n - 1][1]);
        finish(s);
    }
    finish(base);
}

/* Seed: "niemand meer dan 3 grondstoffen van die soort door die kaart". */
static void test_production_stops_at_three(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    set_stock(s, 0, 1, 1, 1, 1, 1, 3);
    run(s, "0 roll; c die 6; c event-die trade");
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G1 Au3");
    finish(s);
}

/* ==================================================== Hidden information */

/* Rules §4.4 / docs: a paid search reveals the stack to the searcher only,
** and the cards left in it stay known to him; a card he knew that the
** opponent later draws is known to him in the opponent's hand. */
static void test_a_paid_search_reveals_the_stack_to_the_searcher_only(void **unused) {
    (void)unused;
    const char *tops[5] = {"garrison spy caravan", "garrison merchant bishop",
                           "colossus mint harbor", NULL, NULL};
    tafel_state *s = ct_game_with("catan_cards", tops, NULL, NULL, "garrison spy caravan",
                                  "garrison merchant bishop");
    run(s, "0 roll; c die 3; c event-die trade; 0 build garrison 0 -1; 0 end");
    assert_string_equal(frame_now(s), "refill");
    assert_string_equal(stack_seen(s, 0, 3), "? ? ? ? ? ? ? ? ? ? ? ?");
    run(s, "0 search 3; 0 pay W; 0 pay G");
    assert_string_equal(frame_now(s), "search-take");
    assert_true(!strncmp(stack_seen(s, 0, 3), "colossus mint harbor ", 21));
    assert_true(strchr(stack_seen(s, 0, 3), '?') == NULL);
    assert_string_equal(stack_seen(s, 1, 3), "? ? ? ? ? ? ? ? ? ? ? ?");
    assert_string_equal(stack_seen(s, -1, 3), "? ? ? ? ? ? ? ? ? ? ? ?");
    run(s, "0 take mint");
    assert_resample_keeps_views(s);
    assert_string_equal(hand_seen(s, 0, 0), "spy caravan mint");
    assert_string_equal(hand_seen(s, 1, 0), "? ? ?");
    run(s, "0 done");
    assert_string_equal(stocks(s, 0), "L0 W1 B0 O1 G0 Au1");
    /* seat 1's turn: the cards left in stack 3 are still known to seat 0 */
    run(s, "1 roll; c die 3; c event-die trade");
    assert_true(!strncmp(stack_seen(s, 0, 3), "colossus harbor ", 16));
    assert_true(strchr(stack_seen(s, 0, 3), '?') == NULL);
    run(s, "1 build garrison 0 -1; 1 end; 1 draw 3");
    assert_string_equal(hand_seen(s, 0, 1), "? ? colossus");
    assert_string_equal(hand_seen(s, -1, 1), "? ? ?");
    assert_true(!strncmp(stack_seen(s, 0, 3), "harbor ", 7));
    assert_resample_keeps_views(s);
    finish(s);
}

/* Docs: "a card put under a stack is known to whoever put it there". */
static void test_a_card_put_under_a_stack_is_known_to_whoever_put_it(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade; 0 end");
    assert_legal(s, "exchange spy 4"); /* hand already full: one exchange */
    assert_not_legal(s, "draw 4");
    run(s, "0 exchange spy 4");
    assert_string_equal(frame_now(s), "exchange-take");
    run(s, "0 draw 4");
    assert_int_equal(tafel_state_current(s), 1); /* the turn is over */
    assert_string_equal(stack_bottom(s, 0, 4), "spy");
    assert_string_equal(stack_bottom(s, 1, 4), "?");
    assert_string_equal(hand_seen(s, 1, 0), "? ? ?");
    assert_resample_keeps_views(s);
    finish(s);
}

/* Resampling for a seat changes only what that seat cannot see: its view
** stays byte-identical while hidden cards move (docs, view.c). */
static void test_resampling_keeps_the_seats_view_and_changes_hidden_cards(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    main3(s);
    run(s, "0 play spy; 0 take bishop");
    for (int seat = 0; seat < 2; seat++) {
        char *mine = tafel_state_view_json(s, seat), *theirs = tafel_state_view_json(s, 1 - seat);
        int changed = 0;
        for (uint64_t seed = 1; seed <= 5; seed++) {
            tafel_state *r = own(tafel_state_clone(s));
            uint64_t rng = tafel_rng_seed(seed);
            assert_int_equal(tafel_state_resample(r, seat, &rng), TAFEL_OK);
            char *after = tafel_state_view_json(r, seat);
            char *other = tafel_state_view_json(r, 1 - seat);
            assert_string_equal(after, mine);
            changed += !tafel_state_equal(r, s) && strcmp(other, theirs) != 0;
            free(after);
            free(other);
            finish(r);
        }
        assert_true(changed >= 4);
        free(mine);
        free(theirs);
    }
    /* seat 0 saw seat 1's hand: a resample for seat 0 keeps it */
    tafel_state *r = own(tafel_state_clone(s));
    uint64_t rng = tafel_rng_seed(9);
    tafel_state_resample(r, 0, &rng);
    assert_string_equal(hand_seen(r, 1, 1), "herb-witch alchemist");
    finish(r);
    finish(s);
}

/* The text of a move as another seat sees it (tafel_action_view_text) hides
** what that seat's view hides: the card taken after a paid search is "?"
** to the opponent; the card a Spy takes is known to both players (the spy
** chose it, it was the victim's) but not to a spectator, whose view shows
** every hand card as "?". */
static const char *move_seen(const tafel_state *s, int viewer, const char *text) {
    tafel_action a;
    assert_int_equal(tafel_action_from_text(s, text, &a, NULL), TAFEL_OK);
    char *out = scratch();
    tafel_action_view_text(s, viewer, a, out, 64);
    return out;
}

static void test_move_texts_hide_the_cards_a_seat_cannot_see(void **unused) {
    (void)unused;
    const char *tops[5] = {"garrison spy caravan", "bishop conrad garrison",
                           "colossus mint harbor", NULL, NULL};
    tafel_state *s = ct_game_with("catan_cards", tops, NULL, NULL, "garrison spy caravan",
                                  "bishop conrad garrison");
    run(s, "0 roll; c die 3; c event-die trade; 0 build garrison 0 -1; 0 end;"
           "0 search 3; 0 pay W; 0 pay G");
    assert_string_equal(move_seen(s, 0, "take mint"), "take mint");
    assert_string_equal(move_seen(s, 1, "take mint"), "take ?");
    assert_string_equal(move_seen(s, -1, "take mint"), "take ?");
    run(s, "0 take mint; 0 done");
    ct_quiet_turn(s, 1);
    run(s, "0 roll; c die 3; c event-die trade; 0 play spy");
    assert_string_equal(move_seen(s, 0, "take conrad"), "take conrad");
    assert_string_equal(move_seen(s, 1, "take conrad"), "take conrad");
    assert_string_equal(hand_seen(s, -1, 1), "? ? ?");
    assert_string_equal(move_seen(s, -1, "take conrad"), "take ?");
    finish(s);
}

/* =========================================================== Hand limit */

/* Seed (action cards): a player over his limit through an action card puts
** the excess under a stack at once ("gelijk"): here the defender, whose
** Abbey burnt back into his hand lowers his limit to 3 with 4 cards. */
static void test_a_defender_pushed_over_the_limit_discards_at_once(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist spy caravan", "bishop herb-witch alchemist");
    main3(s);
    ct_put_site(s, 1, "abbey", 0, -1);
    run(s, "0 play arsonist; 1 no-counter; c duel 1; 0 pick 0 -1");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "discard");
    run(s, "1 discard abbey 2");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    assert_string_equal(hand_seen(s, 1, 1), "bishop herb-witch alchemist");
    assert_string_equal(stack_bottom(s, 0, 2), "abbey"); /* it was public */
    finish(s);
}

/* Seed, "3. Actiekaarten uitspelen": "Indien een speler door het inzetten
** van een actiekaart meer als het toegestane aantal kaarten bezit, moet hij
** gelijk alle overtollige kaarten onder één van de 5 uitbouwstapels
** schuiven."  The attacker whose Arsonist backfires on his own Abbey holds
** 4 cards with limit 3: he discards at once, not at the end of his turn
** (the rules file §4.4 defers it; the seed speaks and wins). */
static void test_an_attacker_pushed_over_the_limit_by_a_backfire_discards_at_once(
    void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist spy caravan", "bishop herb-witch alchemist");
    main3(s);
    ct_put_site(s, 0, "abbey", 0, -1);
    ct_give(s, 0, "merchant"); /* 4 cards, limit 4 */
    ct_put_site(s, 1, "garrison", 0, -1);
    run(s, "0 play arsonist; 1 no-counter; c duel 6; 1 pick 0 -1");
    assert_string_equal(hand_seen(s, 0, 0), "spy caravan merchant abbey");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "discard");
    run(s, "0 discard abbey 3");
    assert_string_equal(frame_now(s), "main");
    finish(s);
}

/* Rules §4.4: "If the hand is already at the limit" he may only exchange;
** over it, he draws nothing.  Seat 0 held 4 cards with a Library; the
** Library burns back into his hand (limit 3, 4 cards).  Whether the excess
** goes at once (seed) or at the end of the turn (rules file), he draws
** nothing at his refill and ends the turn with 3 cards. */
static void test_a_player_over_the_limit_draws_nothing_at_the_end_of_his_turn(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("arsonist spy caravan", "bishop herb-witch alchemist");
    main3(s);
    ct_make_city(s, 0, 0);
    ct_put_site(s, 0, "library", 0, -2);
    ct_give(s, 0, "merchant"); /* 4 cards, limit 4 */
    ct_put_site(s, 1, "garrison", 0, -1);
    run(s, "0 play arsonist; 1 no-counter; c duel 6; 1 pick 0 -2");
    assert_int_equal(ct_data(s)->p[0].hand_len, 4);
    if (!strcmp(frame_now(s), "discard")) run(s, "0 discard library 1");
    run(s, "0 end");
    assert_string_equal(frame_now(s), "refill");
    assert_not_legal(s, "draw 1");
    assert_not_legal(s, "search 1");
    run(s, "0 done");
    if (!strcmp(frame_now(s), "discard")) run(s, "0 discard library 1");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "roll");
    assert_int_equal(ct_data(s)->p[0].hand_len, 3);
    assert_string_equal(stack_bottom(s, 1, 1), "library");
    finish(s);
}

/* ================================================================ The end */

/* Seed: "Zodra een speler 12 zegepunten bezit, eindigt het spel." Eleven
** points, then a knight brings the knight token: the game is over at once. */
static void test_twelve_points_end_the_game_at_once(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("siegfried spy caravan", "bishop herb-witch alchemist");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_put_site(s, 0, "colossus", 0, -2);
    ct_put_site(s, 0, "church", 0, 2);
    ct_put_site(s, 0, "library", 2, -2);
    ct_put_site(s, 0, "town-hall", 2, 2);
    ct_put_site(s, 0, "aqueduct", 0, -1);
    ct_put_site(s, 0, "bath-house", 2, -1);
    assert_int_equal(ct_points(s, 0), 11);
    run(s, "0 roll; c die 3; c event-die trade");
    assert_int_equal(tafel_state_current(s), 0);
    run(s, "0 build siegfried 0 1");
    assert_int_equal(ct_points(s, 0), 12);
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    int w[2];
    assert_int_equal(tafel_state_winners(s, w), 1);
    assert_int_equal(w[0], 0);
    finish(s);
}

/* Eleven points for seat 1, whose knight regains the token when seat 0's
** Black knight backfires: seat 1 wins in seat 0's turn. */
static tafel_state *passive_eleven(const char *game) {
    const char *tops[5] = {"black-knight spy caravan", "bishop herb-witch alchemist", NULL,
                           NULL, NULL};
    tafel_state *s = ct_game_with(game, tops, NULL, NULL, "black-knight spy caravan",
                                  "bishop herb-witch alchemist");
    main3(s);
    ct_make_city(s, 1, 0);
    ct_make_city(s, 1, 2);
    ct_put_site(s, 1, "colossus", 0, -2);
    ct_put_site(s, 1, "church", 0, 2);
    ct_put_site(s, 1, "library", 2, -2);
    ct_put_site(s, 1, "town-hall", 2, 2);
    ct_put_site(s, 1, "aqueduct", 0, -1);
    ct_put_site(s, 1, "bath-house", 2, -1);
    ct_put_site(s, 1, "conrad", 2, 1); /* strength 2 */
    ct_put_site(s, 0, "gotz", 0, -1);  /* strength 5: seat 0 holds the token */
    assert_int_equal(ct_points(s, 1), 11);
    run(s, "0 play black-knight; 1 no-counter; c duel 6; 1 pick 0 -1");
    return s;
}

static void test_the_opponent_reaching_twelve_in_your_turn_wins_at_once(void **unused) {
    (void)unused;
    tafel_state *s = passive_eleven("catan_cards");
    assert_int_equal(ct_points(s, 1), 12);
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    int w[2];
    assert_int_equal(tafel_state_winners(s, w), 1);
    assert_int_equal(w[0], 1);
    finish(s);
}

/* Rules §5 option win_on_own_turn: only the active player can reach 12: the
** game goes on, and seat 1 wins when his own turn comes. */
static void test_with_win_on_own_turn_only_the_active_player_wins(void **unused) {
    (void)unused;
    tafel_state *s = passive_eleven("catan_cards(win_on_own_turn=true)");
    assert_int_equal(ct_points(s, 1), 12);
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(frame_now(s), "main");
    run(s, "0 end; 0 done");
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    int w[2];
    assert_int_equal(tafel_state_winners(s, w), 1);
    assert_int_equal(w[0], 1);
    finish(s);
}

static void test_with_win_on_own_turn_the_active_player_wins_at_once(void **unused) {
    (void)unused;
    const char *tops[5] = {"siegfried spy caravan", "bishop herb-witch alchemist", NULL, NULL,
                           NULL};
    tafel_state *s = ct_game_with("catan_cards(win_on_own_turn=true)", tops, NULL, NULL,
                                  "siegfried spy caravan", "bishop herb-witch alchemist");
    ct_make_city(s, 0, 0);
    ct_make_city(s, 0, 2);
    ct_put_site(s, 0, "colossus", 0, -2);
    ct_put_site(s, 0, "church", 0, 2);
    ct_put_site(s, 0, "library", 2, -2);
    ct_put_site(s, 0, "town-hall", 2, 2);
    ct_put_site(s, 0, "aqueduct", 0, -1);
    ct_put_site(s, 0, "bath-house", 2, -1);
    run(s, "0 roll; c die 3; c event-die trade; 0 build siegfried 0 1");
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    int w[2];
    assert_int_equal(tafel_state_winners(s, w), 1);
    assert_int_equal(w[0], 0);
    finish(s);
}

/* Docs: max_turns=N: the game is a draw when N turns have been played. */
static void test_max_turns_ends_the_game_in_a_draw(void **unused) {
    (void)unused;
    const char *tops[5] = {"spy caravan merchant", "bishop herb-witch alchemist", NULL, NULL,
                           NULL};
    tafel_state *s = ct_game_with("catan_cards(max_turns=2)", tops, NULL, NULL,
                                  "spy caravan merchant", "bishop herb-witch alchemist");
    ct_quiet_turn(s, 0);
    assert_int_equal(tafel_state_current(s), 1);
    ct_quiet_turn(s, 1);
    assert_int_equal(tafel_state_current(s), TAFEL_TERMINAL);
    int w[2];
    assert_int_equal(tafel_state_winners(s, w), 2);
    assert_int_equal(w[0], 0);
    assert_int_equal(w[1], 1);
    cJSON *v = h_view(s, -1);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "draw")));
    cJSON_Delete(v);
    finish(s);
}

/* ================================================== Trading with the opponent */

/* Rules §4.3: the active player offers (give X, get Y); the opponent
** accepts or declines.  (Docs: an offer is made a step away from the main
** phase: `negotiate`, then `offer 2L 1O`.) */
static void test_an_accepted_offer_exchanges_the_resources(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade");
    set_stock(s, 0, 3, 1, 1, 0, 1, 1);
    set_stock(s, 1, 0, 1, 1, 2, 1, 1);
    run(s, "0 negotiate; 0 offer 2L 1O");
    assert_int_equal(tafel_state_current(s), 1);
    assert_string_equal(frame_now(s), "offer");
    cJSON *v = h_view(s, 1);
    const cJSON *o = cJSON_GetObjectItem(v, "offer");
    assert_string_equal(h_json_string(o, "give"), "2L");
    assert_string_equal(h_json_string(o, "get"), "1O");
    cJSON_Delete(v);
    run(s, "1 accept");
    assert_int_equal(tafel_state_current(s), 0);
    assert_string_equal(stocks(s, 0), "L1 W1 B1 O1 G1 Au1");
    assert_string_equal(stocks(s, 1), "L2 W1 B1 O1 G1 Au1");
    finish(s);
}

static void test_a_declined_offer_changes_nothing(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade");
    set_stock(s, 0, 3, 1, 1, 0, 1, 1);
    set_stock(s, 1, 0, 1, 1, 2, 1, 1);
    run(s, "0 negotiate; 0 offer 2L 1O; 1 decline");
    assert_string_equal(stocks(s, 0), "L3 W1 B1 O0 G1 Au1");
    assert_string_equal(stocks(s, 1), "L0 W1 B1 O2 G1 Au1");
    assert_string_equal(frame_now(s), "main");
    run(s, "0 negotiate");
    assert_not_legal(s, "offer 1L 3O"); /* seat 1 holds only 2 ore */
    assert_not_legal(s, "offer 4L 1O");
    finish(s);
}

/* Rules §4.3 (a decision): accepted trades are unlimited, but at most 3
** offers may be declined in a turn, so that a table cannot be stalled by an
** offer repeated for ever; the next turn starts afresh. */
static void test_after_three_declined_offers_negotiate_is_refused_until_the_next_turn(
    void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade");
    run(s, "0 negotiate; 0 offer 1L 1O; 1 decline; 0 negotiate; 0 offer 1W 1O; 1 decline;"
           "0 negotiate; 0 offer 1B 1G; 1 decline");
    assert_not_legal(s, "negotiate");
    h_refused(s, "negotiate", TAFEL_EILLEGAL);
    tafel_error err = {0};
    assert_int_equal(tafel_state_apply_text(s, "negotiate", &err), TAFEL_EILLEGAL);
    if (!strstr(err.message, "3 offers were declined this turn"))
        fail_msg("refused with '%s'", err.message);
    run(s, "0 end; 0 done; 1 roll; c die 3; c event-die trade");
    assert_legal(s, "negotiate");
    finish(s);
}

/* Accepted offers do not count toward the 3: decline, decline, accept,
** accept, and a third offer may still be made; only its decline ends the
** negotiating. */
static void test_accepted_offers_do_not_count_toward_the_three_declined(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade");
    set_stock(s, 0, 2, 2, 2, 1, 1, 1);
    set_stock(s, 1, 1, 1, 1, 2, 2, 1);
    run(s, "0 negotiate; 0 offer 1L 1O; 1 decline; 0 negotiate; 0 offer 1W 1G; 1 decline;"
           "0 negotiate; 0 offer 1L 1O; 1 accept; 0 negotiate; 0 offer 1W 1G; 1 accept");
    assert_string_equal(stocks(s, 0), "L1 W1 B2 O2 G2 Au1");
    assert_string_equal(stocks(s, 1), "L2 W2 B1 O1 G1 Au1");
    assert_legal(s, "negotiate");
    run(s, "0 negotiate; 0 offer 1B 1O; 1 decline");
    assert_not_legal(s, "negotiate");
    finish(s);
}

/* The seed: "Een speler kan op gelijk welk moment met zijn tegenstander
** grondstoffen ruilen, de voorwaarden worden door beide spelers bepaald"
** (at any time, on terms both set): no limit on trades.  Six 1-for-1
** trades in one turn turn ore and gold into a road and a settlement. */
static void test_six_accepted_trades_in_one_turn_pay_for_a_road_and_a_settlement(
    void **unused) {
    (void)unused;
    tafel_state *s = ct_game("spy caravan merchant", "bishop herb-witch alchemist");
    run(s, "0 roll; c die 3; c event-die trade");
    set_stock(s, 0, 0, 0, 0, 3, 1, 3);
    set_stock(s, 1, 2, 1, 3, 0, 1, 0);
    int points = ct_points(s, 0);
    assert_not_legal(s, "road left");
    run(s, "0 negotiate; 0 offer 1O 1L; 1 accept; 0 negotiate; 0 offer 1O 1L; 1 accept;"
           "0 negotiate; 0 offer 1O 1B; 1 accept; 0 negotiate; 0 offer 1Au 1B; 1 accept;"
           "0 negotiate; 0 offer 1Au 1B; 1 accept; 0 negotiate; 0 offer 1Au 1W; 1 accept");
    assert_string_equal(stocks(s, 0), "L2 W1 B3 O0 G1 Au0");
    assert_string_equal(stocks(s, 1), "L0 W0 B0 O3 G1 Au3");
    run(s, "0 road left; 0 settlement left; 0 above fields4");
    assert_string_equal(stocks(s, 0), "L0 W0 B0 O0 G0 Au0");
    assert_int_equal(ct_data(s)->p[0].centre[-1 + CT_COL0], CT_ROAD);
    assert_int_equal(ct_data(s)->p[0].centre[-2 + CT_COL0], CT_SETTLEMENT);
    assert_string_equal(region_at(s, 0, -3, -1), "fields4:0");
    assert_int_equal(ct_points(s, 0), points + 1);
    finish(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alchemist_chooses_the_production_number_instead_of_rolling),
        cmocka_unit_test(test_alchemist_cannot_be_played_before_both_players_had_a_turn),
        cmocka_unit_test(test_alchemist_is_not_playable_after_the_roll),
        cmocka_unit_test(test_arsonist_success_returns_a_building_chosen_by_the_attacker),
        cmocka_unit_test(test_arsonist_backfire_returns_an_own_building_chosen_by_the_defender),
        cmocka_unit_test(test_a_bishop_lets_an_arsonist_succeed_only_on_1_or_2),
        cmocka_unit_test(test_arsonist_needs_an_opposing_building),
        cmocka_unit_test(test_black_knight_success_sends_an_opposing_knight_back_to_hand),
        cmocka_unit_test(test_herb_witch_turns_a_black_knight_roll_of_3_into_a_backfire),
        cmocka_unit_test(test_herb_witch_still_lets_a_black_knight_succeed_on_2),
        cmocka_unit_test(test_black_knight_needs_an_opposing_knight),
        cmocka_unit_test(test_brigands_success_takes_two_resources_of_the_attackers_choice),
        cmocka_unit_test(test_brigands_backfire_lets_the_defender_take_two),
        cmocka_unit_test(test_a_bishop_counters_brigands),
        cmocka_unit_test(test_brigands_need_an_opponent_with_resources),
        cmocka_unit_test(test_bishop_and_herb_witch_are_not_playable_in_the_main_phase),
        cmocka_unit_test(test_caravan_swaps_two_resources_one_for_one),
        cmocka_unit_test(test_caravan_may_stop_after_one_swap),
        cmocka_unit_test(test_merchant_takes_two_then_gives_one),
        cmocka_unit_test(test_merchant_may_take_only_one),
        cmocka_unit_test(test_scout_chooses_the_new_regions_then_the_stack_is_reshuffled),
        cmocka_unit_test(test_a_settlement_without_scout_takes_the_top_two_regions),
        cmocka_unit_test(test_spy_sees_the_opponents_hand_and_takes_a_unit_or_action_card),
        cmocka_unit_test(test_spy_may_take_nothing),
        cmocka_unit_test(test_spy_needs_cards_in_the_opponents_hand),
        cmocka_unit_test(test_played_action_cards_leave_the_game),
        cmocka_unit_test(test_civil_war_sends_one_unit_of_each_player_back_and_both_discard),
        cmocka_unit_test(test_civil_war_cannot_take_a_unit_at_a_city_with_a_church),
        cmocka_unit_test(test_civil_war_passes_over_a_player_whose_only_unit_is_protected),
        cmocka_unit_test(test_conflict_lets_the_knight_token_holder_put_two_opposing_cards_under),
        cmocka_unit_test(test_conflict_without_a_knight_token_does_nothing),
        cmocka_unit_test(test_master_builder_lets_each_player_search_a_stack_for_free),
        cmocka_unit_test(test_plague_takes_one_from_each_region_next_to_a_city),
        cmocka_unit_test(test_productive_year_gives_one_per_bordering_garrison),
        cmocka_unit_test(test_progress_gives_a_resource_per_abbey_and_library),
        cmocka_unit_test(test_progress_gives_nothing_without_abbey_or_library),
        cmocka_unit_test(test_year_end_reshuffles_the_whole_event_deck),
        cmocka_unit_test(test_an_event_card_goes_under_the_event_deck),
        cmocka_unit_test(test_the_event_die_has_two_event_faces),
        cmocka_unit_test(test_tournament_gives_the_player_with_more_tournament_points_a_resource),
        cmocka_unit_test(test_a_tied_tournament_gives_nothing),
        cmocka_unit_test(test_trade_advantage_lets_the_windmill_holder_take_a_resource),
        cmocka_unit_test(test_trade_advantage_without_a_windmill_holder_does_nothing),
        cmocka_unit_test(test_brigand_attack_takes_all_ore_and_wool_above_seven),
        cmocka_unit_test(test_brigand_attack_ignores_regions_protected_by_a_garrison),
        cmocka_unit_test(test_good_year_gives_each_player_a_resource_roller_first),
        cmocka_unit_test(test_each_production_number_produces_on_its_regions_for_both),
        cmocka_unit_test(test_production_stops_at_three),
        cmocka_unit_test(test_a_paid_search_reveals_the_stack_to_the_searcher_only),
        cmocka_unit_test(test_a_card_put_under_a_stack_is_known_to_whoever_put_it),
        cmocka_unit_test(test_resampling_keeps_the_seats_view_and_changes_hidden_cards),
        cmocka_unit_test(test_move_texts_hide_the_cards_a_seat_cannot_see),
        cmocka_unit_test(test_a_defender_pushed_over_the_limit_discards_at_once),
        cmocka_unit_test(test_an_attacker_pushed_over_the_limit_by_a_backfire_discards_at_once),
        cmocka_unit_test(test_a_player_over_the_limit_draws_nothing_at_the_end_of_his_turn),
        cmocka_unit_test(test_twelve_points_end_the_game_at_once),
        cmocka_unit_test(test_the_opponent_reaching_twelve_in_your_turn_wins_at_once),
        cmocka_unit_test(test_with_win_on_own_turn_only_the_active_player_wins),
        cmocka_unit_test(test_with_win_on_own_turn_the_active_player_wins_at_once),
        cmocka_unit_test(test_max_turns_ends_the_game_in_a_draw),
        cmocka_unit_test(test_an_accepted_offer_exchanges_the_resources),
        cmocka_unit_test(test_a_declined_offer_changes_nothing),
        cmocka_unit_test(test_after_three_declined_offers_negotiate_is_refused_until_the_next_turn),
        cmocka_unit_test(test_accepted_offers_do_not_count_toward_the_three_declined),
        cmocka_unit_test(test_six_accepted_trades_in_one_turn_pay_for_a_road_and_a_settlement),
    };
    return cmocka_run_group_tests(tests, NULL, free_owned);
}
