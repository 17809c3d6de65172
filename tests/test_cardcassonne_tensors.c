/*
** test_cardcassonne_tensors.c -- Cardcassonne for learners (issue 27): the
** observation and information-state tensors and the fixed action space, as
** docs/tensors-cardcassonne.md describes them.
**
** The central check rebuilds every seat's tensor from its JSON view alone
** (an implementation of the documentation independent of tensors.c) and
** compares it float for float, in random games of 2 to 5 players: so the
** tensor holds exactly what the view shows, in the documented places.  The
** hidden-information check resamples what a seat cannot see and asks that
** its tensors stay the same.  The action space is checked against the legal
** actions of the same states.  Public API only.
*/
#include "helpers.h"

#define TYPES 24
#define ROWS 4
#define SPACE 110

/* The card types in the documented order, and their copies in the deck. */
static const char *const type_names[TYPES] = {
    "Y1", "Y2", "Y3", "YA", "YH", "R1", "R2", "R3", "RA", "RH", "G1", "G2",
    "G3", "GA", "GH", "B1", "B2", "B3", "BA", "BH", "DRAGON", "FAIRY", "AJ", "HJ"};
static const int type_count[TYPES] = {8, 5, 3, 9, 5, 8, 5, 3, 9, 5, 8, 5,
                                      3, 9, 5, 8, 5, 3, 9, 5, 1, 1, 4, 4};
static const char *const row_names[ROWS] = {"Y", "R", "G", "B"};
static const char *const phase_names[] = {"reveal", "row",    "deal", "play",
                                          "wrong",  "assign", "over"};
static const char *const kind_names[4] = {"chicken", "pig", "sheep", "horse"};
/* the animal card type of each kind: chicken YA, pig BA, sheep RA, horse GA */
static const int kind_type[4] = {3, 18, 8, 13};
static const char *const category_names[6] = {"persons", "animals",      "jokers",
                                              "dragon_fairy", "wrong", "buildings"};

static int type_of(const char *name) {
    for (int t = 0; t < TYPES; t++)
        if (name && strcmp(type_names[t], name) == 0) return t;
    fail_msg("no card type '%s'", name ? name : "(null)");
    return -1;
}

/* The action of index i as the documentation gives it, as text. */
static void documented_text(int i, char *buf, size_t size) {
    if (i < 96) snprintf(buf, size, "play %s %s", type_names[i / 4], row_names[i % 4]);
    else if (i < 100) snprintf(buf, size, "follower %s", row_names[i - 96]);
    else if (i < 104) snprintf(buf, size, "row %s", row_names[i - 100]);
    else if (i < 106) snprintf(buf, size, "%s", i == 104 ? "ten" : "keep");
    else snprintf(buf, size, "assign %s", kind_names[i - 106]);
}

static int index_of(const char *const *names, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (name && strcmp(names[i], name) == 0) return i;
    fail_msg("unexpected name '%s'", name ? name : "(null)");
    return -1;
}

static tafel_game *game_of(int players) {
    char text[64];
    snprintf(text, sizeof text, "cardcassonne(players=%d)", players);
    return h_game(text);
}

/* The first float of part name of tensor kind, failing when there is none. */
static size_t part_at(const tafel_game *g, int kind, const char *name, size_t *size) {
    size_t offset, n;
    const char *part;
    for (int i = 0; (part = tafel_game_tensor_part(g, kind, i, &offset, &n)); i++)
        if (strcmp(part, name) == 0) {
            if (size) *size = n;
            return offset;
        }
    fail_msg("no part '%s'", name);
    return 0;
}

static const cJSON *item(const cJSON *obj, const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it) fail_msg("view: no \"%s\"", key);
    return it;
}

/* ---- the tensor rebuilt from the view --------------------------------- */

typedef struct layout {
    size_t phase, round, pile, setup_joker, wrong_card, new_jokers, removed, turned, hand,
        to_move, dealer, hand_count, played, follower, score, points, animals, animal_jokers,
        unassigned, chest, open_cards, open_down, open_down_known, secured_cards,
        secured_down, secured_down_known, unseen;
} layout;

static layout layout_of(const tafel_game *g, int kind) {
    layout L = {0};
#define AT(field, name) L.field = part_at(g, kind, name, NULL)
    AT(phase, "phase"); AT(round, "round"); AT(pile, "pile");
    AT(setup_joker, "setup_joker"); AT(wrong_card, "wrong_card");
    AT(new_jokers, "new_jokers"); AT(removed, "removed"); AT(turned, "turned");
    AT(hand, "hand"); AT(to_move, "to_move"); AT(dealer, "dealer");
    AT(hand_count, "hand_count"); AT(played, "played"); AT(follower, "follower");
    AT(score, "score"); AT(points, "points"); AT(animals, "animals");
    AT(animal_jokers, "animal_jokers"); AT(unassigned, "unassigned_jokers");
    AT(chest, "chest"); AT(open_cards, "open_cards"); AT(open_down, "open_down");
    AT(open_down_known, "open_down_known"); AT(secured_cards, "secured_cards");
    AT(secured_down, "secured_down"); AT(secured_down_known, "secured_down_known");
    if (kind == TAFEL_INFORMATION_STATE) AT(unseen, "unseen");
#undef AT
    return L;
}

/* One row entry of the view into a stretch: cards, down and known are the
** stretch's arrays in the tensor. */
static void count_entry(const cJSON *e, float *cards, float *down, float *known,
                        float *turned, int me, int players) {
    if (cJSON_GetObjectItemCaseSensitive(e, "taken")) return;
    const cJSON *owner = cJSON_GetObjectItemCaseSensitive(e, "down");
    const char *card = h_json_string(e, "card");
    if (owner) {
        down[(owner->valueint - me + players) % players] += 1;
        if (card) known[type_of(card)] += 1;
        return;
    }
    cards[type_of(card)] += 1;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "turned"))) turned[type_of(card)] += 1;
}

/* seat's tensor of kind as the documentation builds it from the view. */
static void tensor_from_view(const tafel_state *s, const tafel_game *g, int seat, int kind,
                             float *out, size_t size) {
    memset(out, 0, size * sizeof *out);
    layout L = layout_of(g, kind);
    cJSON *v = h_view(s, seat);
    int P = h_json_int(v, "players"), me = seat < 0 ? 0 : seat;
#define REL(p) (((p) - me + P) % P)
    out[L.phase + (size_t)index_of(phase_names, 7, h_json_string(v, "phase"))] = 1;
    out[L.round + (size_t)h_json_int(v, "round") - 1] = 1;
    out[L.pile] = (float)h_json_int(v, "pile");
    const char *joker = h_json_string(v, "setup_joker");
    if (joker) out[L.setup_joker + (size_t)type_of(joker)] = 1;
    const cJSON *decision = item(v, "decision");
    const char *dkind = cJSON_IsObject(decision) ? h_json_string(decision, "kind") : NULL;
    if (dkind && strcmp(dkind, "ten_or_keep") == 0)
        out[L.wrong_card + (size_t)type_of(h_json_string(decision, "card"))] = 1;
    if (dkind && strcmp(dkind, "assign") == 0)
        out[L.new_jokers] = (float)h_json_int(decision, "new_jokers");
    const cJSON *removed = item(v, "removed"), *it;
    cJSON_ArrayForEach(it, removed) out[L.removed + (size_t)type_of(it->string)] = (float)it->valueint;
    const cJSON *next = item(v, "next");
    if (cJSON_IsNumber(next)) out[L.to_move + (size_t)REL(next->valueint)] = 1;
    out[L.dealer + (size_t)REL(h_json_int(v, "dealer"))] = 1;

    const cJSON *seats = item(v, "seats");
    int new_jokers_of = -1; /* the seat assigning, whose new jokers lie in front of it */
    if (dkind && strcmp(dkind, "assign") == 0) new_jokers_of = h_json_int(decision, "seat");
    float taken[TYPES] = {0}; /* what lies in front of and under every chest */
    for (int p = 0; p < P; p++) {
        const cJSON *o = cJSON_GetArrayItem(seats, p);
        size_t r = (size_t)REL(p);
        if (p == seat) {
            cJSON_ArrayForEach(it, item(o, "hand")) out[L.hand + (size_t)type_of(it->valuestring)] += 1;
        } else {
            assert_null(cJSON_GetObjectItemCaseSensitive(o, "hand"));
        }
        out[L.hand_count + r] = (float)h_json_int(o, "hand_count");
        out[L.played + r] = (float)h_json_int(o, "played");
        const char *follower = h_json_string(o, "follower");
        if (follower) out[L.follower + r * ROWS + (size_t)index_of(row_names, ROWS, follower)] = 1;
        out[L.score + r] = (float)h_json_int(o, "score");
        for (int c = 0; c < 6; c++)
            out[L.points + r * 6 + (size_t)c] = (float)h_json_int(item(o, "points"), category_names[c]);
        int jokers = h_json_int(o, "unassigned_jokers");
        for (int k = 0; k < 4; k++) {
            int all = h_json_int(item(o, "animals"), kind_names[k]);
            int as = h_json_int(item(o, "animal_jokers"), kind_names[k]);
            out[L.animals + r * 4 + (size_t)k] = (float)all;
            out[L.animal_jokers + r * 4 + (size_t)k] = (float)as;
            taken[kind_type[k]] += (float)(all - as);
            jokers += as;
        }
        if (p == new_jokers_of) jokers += h_json_int(decision, "new_jokers");
        taken[type_of("AJ")] += (float)jokers;
        out[L.unassigned + r] = (float)h_json_int(o, "unassigned_jokers");
        const char *chest_keys[5] = {"Y", "R", "G", "B", "HJ"};
        const int chest_types[5] = {4, 9, 14, 19, 23};
        for (int c = 0; c < 5; c++) {
            int n = h_json_int(item(o, "chest"), chest_keys[c]);
            out[L.chest + r * 5 + (size_t)c] = (float)n;
            taken[chest_types[c]] += (float)n;
        }
    }

    const cJSON *rows = item(v, "rows");
    for (int row = 0; row < ROWS; row++) {
        const cJSON *entries = item(rows, row_names[row]);
        int n = cJSON_GetArraySize(entries), from = 0;
        for (int i = 0; i < n; i++) {
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(entries, i),
                                                              "follower");
            if (!f) continue;
            size_t r = (size_t)REL(f->valueint);
            for (int j = from; j < i; j++)
                count_entry(cJSON_GetArrayItem(entries, j), out + L.secured_cards + r * TYPES,
                            out + L.secured_down + r * (size_t)P,
                            out + L.secured_down_known + r * TYPES, out + L.turned, me, P);
            from = i + 1;
        }
        for (int j = from; j < n; j++)
            count_entry(cJSON_GetArrayItem(entries, j), out + L.open_cards + (size_t)row * TYPES,
                        out + L.open_down + (size_t)row * (size_t)P,
                        out + L.open_down_known + (size_t)row * TYPES, out + L.turned, me, P);
    }
    if (kind == TAFEL_INFORMATION_STATE)
        for (int t = 0; t < TYPES; t++) {
            float seen = out[L.removed + t] + out[L.hand + t] + out[L.setup_joker + t] + taken[t];
            for (int row = 0; row < ROWS; row++)
                seen += out[L.open_cards + (size_t)row * TYPES + t] +
                        out[L.open_down_known + (size_t)row * TYPES + t];
            for (int r = 0; r < P; r++)
                seen += out[L.secured_cards + (size_t)r * TYPES + t] +
                        out[L.secured_down_known + (size_t)r * TYPES + t];
            out[L.unseen + t] = (float)type_count[t] - seen;
        }
#undef REL
    cJSON_Delete(v);
}

/* seat's tensor of kind, written by the engine. */
static void tensor_of(const tafel_state *s, int seat, int kind, float *out, size_t size) {
    tafel_error err = {0};
    int rc = kind == TAFEL_OBSERVATION
                 ? tafel_state_observation_tensor(s, seat, out, size, &err)
                 : tafel_state_information_state_tensor(s, seat, out, size, &err);
    if (rc != TAFEL_OK) fail_msg("tensor of seat %d: %s", seat, err.message);
}

static void assert_tensors_equal(const tafel_game *g, int kind, const float *want,
                                 const float *got, size_t size, const char *what, int seat) {
    for (size_t i = 0; i < size; i++)
        if (want[i] != got[i]) {
            size_t offset = 0, n = 0;
            const char *part = NULL;
            for (int k = 0; (part = tafel_game_tensor_part(g, kind, k, &offset, &n)); k++)
                if (i < offset + n) break;
            fail_msg("%s, %s, seat %d: float %zu (%s[%zu]) is %g, expected %g", what,
                     tafel_game_string(g), seat, i, part ? part : "?", i - offset,
                     (double)got[i], (double)want[i]);
        }
}

/* ---- shapes ----------------------------------------------------------- */

/* Sizes are the product of the shape, the parts tile the tensor in order
** with unique names, the information state is the observation and one part
** more, and the sizes follow the documented formula. */
static void test_shapes_parts_and_sizes_agree(void **unused) {
    (void)unused;
    for (int P = 2; P <= 5; P++) {
        tafel_game *g = game_of(P);
        int R = P == 2 ? 10 : P == 3 ? 8 : 6;
        size_t documented[2] = {(size_t)(321 + 81 * P + P * P + R),
                                (size_t)(321 + 81 * P + P * P + R + TYPES)};
        for (int kind = TAFEL_OBSERVATION; kind <= TAFEL_INFORMATION_STATE; kind++) {
            int dims[TAFEL_TENSOR_MAX_RANK];
            assert_int_equal(tafel_game_tensor_shape(g, kind, dims), 1);
            assert_int_equal((size_t)dims[0], tafel_game_tensor_size(g, kind));
            assert_int_equal(tafel_game_tensor_size(g, kind), documented[kind]);
            size_t at = 0, offset, n;
            const char *name;
            int parts = 0;
            for (; (name = tafel_game_tensor_part(g, kind, parts, &offset, &n)); parts++) {
                assert_int_equal(offset, at);
                assert_true(n > 0);
                at += n;
                for (int k = 0; k < parts; k++)
                    assert_string_not_equal(tafel_game_tensor_part(g, kind, k, NULL, NULL), name);
                if (kind == TAFEL_INFORMATION_STATE && name != NULL &&
                    tafel_game_tensor_part(g, TAFEL_OBSERVATION, parts, NULL, NULL))
                    assert_string_equal(name,
                                        tafel_game_tensor_part(g, TAFEL_OBSERVATION, parts,
                                                               NULL, NULL));
            }
            assert_int_equal(at, tafel_game_tensor_size(g, kind));
            assert_int_equal(parts, kind == TAFEL_OBSERVATION ? 26 : 27);
        }
        size_t n;
        part_at(g, TAFEL_INFORMATION_STATE, "unseen", &n);
        assert_int_equal(n, TYPES);
        part_at(g, TAFEL_OBSERVATION, "secured_down", &n);
        assert_int_equal(n, (size_t)(P * P));
        part_at(g, TAFEL_OBSERVATION, "round", &n);
        assert_int_equal(n, (size_t)R);
        assert_int_equal(tafel_game_action_space_size(g), SPACE);
        tafel_game_free(g);
    }
}

/* ---- random games ----------------------------------------------------- */

typedef struct run_stats {
    int states, changed_other[2]; /* another seat's tensor changed by a resample */
    uint8_t index_seen[SPACE];
} run_stats;

/* The action space at s: the mask is exactly the indices of the legal
** actions, both ways round trip, each index is the action the documentation
** gives it (the same in every state), every other index and action is
** refused. */
static void check_action_space(const tafel_state *s, const tafel_game *g, run_stats *st) {
    int distinct = tafel_game_num_distinct_actions(g), cur = tafel_state_current(s);
    uint8_t mask[SPACE + 8], want[SPACE + 8] = {0};
    memset(mask, 0xAB, sizeof mask);
    int count = tafel_state_legal_actions_mask(s, mask, sizeof mask);
    for (size_t i = SPACE; i < sizeof mask; i++) assert_int_equal(mask[i], 0);
    tafel_error err = {0};
    tafel_action a;
    if (cur < 0) { /* chance or the end: no seat acts, nothing has an index */
        assert_int_equal(count, 0);
        for (int i = 0; i < SPACE; i++) assert_int_equal(mask[i], 0);
        int n;
        tafel_action *legal = h_legal(s, &n); /* the chance outcomes */
        for (int i = 0; i < n; i++) assert_int_equal(tafel_state_action_index(s, legal[i]), -1);
        free(legal);
        assert_int_equal(tafel_state_index_action(s, 0, &a, &err), TAFEL_EINVAL);
        return;
    }
    int n;
    tafel_action *legal = h_legal(s, &n);
    for (int i = 0; i < n; i++) {
        int k = tafel_state_action_index(s, legal[i]);
        assert_true(k >= 0 && k < SPACE);
        assert_int_equal(want[k], 0); /* one action an index */
        want[k] = 1;
        st->index_seen[k] = 1;
        assert_int_equal(tafel_state_index_action(s, k, &a, &err), TAFEL_OK);
        assert_int_equal(a, legal[i]);
        char text[64], doc[64]; /* the index means what the documentation says */
        h_text(s, a, text, sizeof text);
        documented_text(k, doc, sizeof doc);
        assert_string_equal(text, doc);
    }
    assert_int_equal(count, n);
    assert_memory_equal(mask, want, SPACE);
    for (int i = 0; i < SPACE; i++)
        if (!want[i]) {
            err.message[0] = 0;
            assert_int_equal(tafel_state_index_action(s, i, &a, &err), TAFEL_EILLEGAL);
            assert_true(err.message[0] != 0);
        }
    for (tafel_action x = -2; x < distinct + 2; x++)
        assert_int_equal(tafel_state_action_index(s, x) >= 0, tafel_state_is_legal(s, x));
    free(legal);
}

/* Every seat's tensors (and the spectator's) equal the ones rebuilt from
** its view, write after write; resampling what a seat cannot see changes
** none of its own, and sometimes another seat's. */
static void check_tensors(const tafel_state *s, const tafel_game *g, uint64_t *rng,
                          run_stats *st) {
    int P = tafel_game_players(g);
    for (int kind = TAFEL_OBSERVATION; kind <= TAFEL_INFORMATION_STATE; kind++) {
        size_t size = tafel_game_tensor_size(g, kind);
        float got[1024], again[1024], want[1024], other[1024];
        assert_true(size <= 1024);
        for (int seat = -1; seat < P; seat++) {
            tensor_of(s, seat, kind, got, size);
            tensor_from_view(s, g, seat, kind, want, size);
            assert_tensors_equal(g, kind, want, got, size, "from the view", seat);
            memset(again, 0x7F, sizeof again);
            tensor_of(s, seat, kind, again, size);
            assert_memory_equal(got, again, size * sizeof *got);

            /* a spectator sees less than any seat: resampled for seat 0 */
            tafel_state *r = tafel_state_clone(s);
            assert_int_equal(tafel_state_resample(r, seat < 0 ? 0 : seat, rng), TAFEL_OK);
            tensor_of(r, seat, kind, again, size);
            assert_tensors_equal(g, kind, got, again, size, "after a resample", seat);
            int q = (seat + 1) % P;
            tensor_of(s, q, kind, other, size);
            tensor_of(r, q, kind, again, size);
            st->changed_other[kind] += memcmp(other, again, size * sizeof *got) != 0;
            tafel_state_free(r);
        }
    }
    double scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(s, scores);
    float obs[1024];
    size_t score = part_at(g, TAFEL_OBSERVATION, "score", NULL);
    for (int seat = 0; seat < P; seat++) {
        tensor_of(s, seat, TAFEL_OBSERVATION, obs, tafel_game_tensor_size(g, TAFEL_OBSERVATION));
        for (int i = 0; i < P; i++) /* slot i is seat + i */
            assert_int_equal((int)obs[score + (size_t)i], (int)scores[(seat + i) % P]);
    }
}

/* Random games of 2 to 5 players: the action space at every state, the
** tensors at every state of a few games and every few states of the rest. */
static void test_random_games_agree_with_the_view_and_the_legal_actions(void **unused) {
    (void)unused;
    int games = SLOW_BUILD ? 8 : 40;
    for (int P = 2; P <= 5; P++) {
        tafel_game *g = game_of(P);
        run_stats st = {0};
        for (int game = 0; game < games; game++) {
            tafel_state *s = tafel_state_new(g);
            uint64_t rng = tafel_rng_seed((uint64_t)(1000 * P + game));
            int every = game < 2 ? 1 : SLOW_BUILD ? 23 : 7;
            for (int step = 0;; step++) {
                check_action_space(s, g, &st);
                if (step % every == 0 || tafel_state_current(s) == TAFEL_TERMINAL) {
                    check_tensors(s, g, &rng, &st);
                    st.states++;
                }
                if (tafel_state_current(s) == TAFEL_TERMINAL) break;
                tafel_action a = h_random_action(s, &rng);
                assert_int_equal(tafel_state_apply(s, a, NULL), TAFEL_OK);
            }
            tafel_state_free(s);
        }
        /* resampling does change what other seats see, so the check above
        ** could have failed */
        assert_true(st.changed_other[TAFEL_OBSERVATION] > st.states / 10);
        assert_true(st.changed_other[TAFEL_INFORMATION_STATE] > st.states / 10);
        if (!SLOW_BUILD) /* no index is dead: the space is exactly the seats' actions */
            for (int i = 0; i < SPACE; i++)
                if (!st.index_seen[i]) fail_msg("%d players: index %d was never legal", P, i);
        tafel_game_free(g);
    }
}

/* ---- bad arguments ---------------------------------------------------- */

static void assert_refused(int rc, int code, const tafel_error *err, const char *words) {
    assert_int_equal(rc, code);
    if (!strstr(err->message, words)) fail_msg("expected '%s' in: %s", words, err->message);
}

static void test_bad_arguments_are_refused_with_a_reason(void **unused) {
    (void)unused;
    tafel_game *g = game_of(3);
    tafel_state *s = tafel_state_new(g);
    size_t size = tafel_game_tensor_size(g, TAFEL_OBSERVATION);
    float out[1024];
    tafel_error err = {0};
    assert_refused(tafel_state_observation_tensor(s, 0, out, size - 1, &err), TAFEL_EINVAL,
                   &err, "floats");
    assert_refused(tafel_state_information_state_tensor(s, 0, out, size, &err), TAFEL_EINVAL,
                   &err, "floats"); /* the information state is longer */
    assert_refused(tafel_state_observation_tensor(s, 3, out, size, &err), TAFEL_EINVAL, &err,
                   "no seat 3");
    assert_refused(tafel_state_observation_tensor(s, -2, out, size, &err), TAFEL_EINVAL, &err,
                   "no seat -2");
    assert_refused(tafel_state_observation_tensor(s, 0, NULL, size, &err), TAFEL_EINVAL, &err,
                   "no output");
    int dims[TAFEL_TENSOR_MAX_RANK];
    assert_int_equal(tafel_game_tensor_shape(g, 2, dims), -1);
    assert_int_equal(tafel_game_tensor_size(g, 2), 0);
    assert_null(tafel_game_tensor_part(g, TAFEL_OBSERVATION, -1, NULL, NULL));
    assert_null(tafel_game_tensor_part(g, TAFEL_OBSERVATION, 26, NULL, NULL));
    assert_non_null(tafel_game_tensor_part(g, TAFEL_INFORMATION_STATE, 26, NULL, NULL));
    assert_null(tafel_game_tensor_part(g, TAFEL_INFORMATION_STATE, 27, NULL, NULL));

    tafel_action a;
    assert_refused(tafel_state_index_action(s, 0, &a, &err), TAFEL_EINVAL, &err,
                   "no seat is to move"); /* setup: chance */
    uint64_t rng = tafel_rng_seed(5);
    while (tafel_state_current(s) < 0) /* to the first decision of a seat */
        assert_int_equal(tafel_state_apply(s, h_random_action(s, &rng), NULL), TAFEL_OK);
    assert_refused(tafel_state_index_action(s, -1, &a, &err), TAFEL_EINVAL, &err,
                   "outside the action space 0..109");
    assert_refused(tafel_state_index_action(s, SPACE, &a, &err), TAFEL_EINVAL, &err,
                   "outside the action space");
    assert_refused(tafel_state_index_action(s, 100000, &a, &err), TAFEL_EINVAL, &err,
                   "outside the action space");
    assert_refused(tafel_state_index_action(s, 0, NULL, &err), TAFEL_EINVAL, &err,
                   "no action space");
    assert_int_equal(tafel_state_action_index(s, -1), -1);
    assert_int_equal(tafel_state_action_index(s, 1 << 30), -1);
    uint8_t small[4];
    assert_int_equal(tafel_state_legal_actions_mask(s, small, sizeof small), -1);
    assert_int_equal(tafel_state_legal_actions_mask(s, NULL, SPACE), -1);
    tafel_state_free(s);
    tafel_game_free(g);
}

/* ---- the worked example of docs/tensors-cardcassonne.md --------------- */

#define SETUP                                                                     \
    "c reveal Y1; c reveal R1; c reveal G1; c reveal B1; c reveal Y2; c reveal R2;" \
    "c reveal G2; c reveal B2; c reveal GA; c reveal AJ; 0 row B"
#define DEAL                                                                      \
    "c deal 1 Y1; c deal 0 R3; c deal 1 G3; c deal 0 B3; c deal 1 RA; c deal 0 YH;" \
    "c deal 1 G1; c deal 0 Y3; c deal 1 B1; c deal 0 GH; c deal 1 Y2; c deal 0 HJ"

typedef struct nonzero {
    const char *part;
    int index;
    float value;
} nonzero;

/* The tensor equals the listed floats, and is 0 everywhere else. */
static void assert_tensor_is(const tafel_game *g, int kind, const float *got,
                             const nonzero *list, int n, int seat) {
    float want[1024] = {0};
    size_t size = tafel_game_tensor_size(g, kind);
    for (int i = 0; i < n; i++) {
        size_t part_size;
        size_t at = part_at(g, kind, list[i].part, &part_size);
        assert_true((size_t)list[i].index < part_size);
        want[at + (size_t)list[i].index] = list[i].value;
    }
    assert_tensors_equal(g, kind, want, got, size, "the worked example", seat);
}

static void test_the_documented_example(void **unused) {
    (void)unused;
    tafel_game *g = game_of(2);
    tafel_state *s = tafel_state_new(g);
    h_script(s, SETUP);
    h_script(s, DEAL);
    h_script(s, "1 play Y1 G; 0 play R3 Y; 1 follower G; 0 play YH Y; 1 play G3 G");
    float t[1024];
    static const nonzero red[] = {
        {"phase", 3, 1}, {"round", 0, 1}, {"pile", 0, 108},
        {"hand", 2, 1}, {"hand", 14, 1}, {"hand", 17, 1}, {"hand", 23, 1}, /* Y3 GH B3 HJ */
        {"to_move", 0, 1}, {"dealer", 0, 1},
        {"hand_count", 0, 4}, {"hand_count", 1, 4}, {"played", 0, 2}, {"played", 1, 2},
        {"follower", 1 * 4 + 2, 1}, /* Blue's follower in the meadow row */
        {"open_cards", 0 * 24 + 0, 1}, {"open_cards", 0 * 24 + 1, 1},  /* Y: Y1 Y2 */
        {"open_cards", 0 * 24 + 4, 1},                                  /* YH */
        {"open_cards", 1 * 24 + 5, 1}, {"open_cards", 1 * 24 + 6, 1},  /* R: R1 R2 */
        {"open_cards", 2 * 24 + 12, 1},                                 /* G: G3 */
        {"open_cards", 3 * 24 + 15, 1}, {"open_cards", 3 * 24 + 16, 1}, /* B: B1 B2 */
        {"open_cards", 3 * 24 + 22, 1},                                 /* AJ */
        {"open_down", 0 * 2 + 0, 1},       /* Red's own face-down card in Y */
        {"open_down_known", 0 * 24 + 7, 1}, /* ... is its R3 */
        {"secured_cards", 1 * 24 + 10, 1}, {"secured_cards", 1 * 24 + 11, 1}, /* G1 G2 */
        {"secured_cards", 1 * 24 + 13, 1},                                     /* GA */
        {"secured_down", 1 * 2 + 1, 1}, /* and Blue's own face-down card, unknown */
    };
    tensor_of(s, 0, TAFEL_OBSERVATION, t, tafel_game_tensor_size(g, TAFEL_OBSERVATION));
    assert_tensor_is(g, TAFEL_OBSERVATION, t, red, (int)(sizeof red / sizeof red[0]), 0);

    /* Blue (seat 1) sees from its own seat: itself first */
    float b[1024];
    tensor_of(s, 1, TAFEL_OBSERVATION, b, tafel_game_tensor_size(g, TAFEL_OBSERVATION));
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "to_move", NULL) + 1], 1);
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "follower", NULL) + 0 * 4 + 2], 1);
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "open_down", NULL) + 0 * 2 + 1], 1);
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "open_down_known", NULL) + 7], 0);
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "secured_down_known", NULL) + 0], 1);
    assert_int_equal(b[part_at(g, TAFEL_OBSERVATION, "hand", NULL) + 8], 1); /* RA */

    /* the information state: the cards whose place each seat cannot know */
    size_t n = tafel_game_tensor_size(g, TAFEL_INFORMATION_STATE);
    size_t unseen = part_at(g, TAFEL_INFORMATION_STATE, "unseen", NULL);
    tensor_of(s, 0, TAFEL_INFORMATION_STATE, t, n);
    tensor_of(s, 1, TAFEL_INFORMATION_STATE, b, n);
    assert_int_equal(t[unseen + 0], 7); /* Y1: 8, one in the cloister row */
    assert_int_equal(b[unseen + 0], 6); /* ... and Blue's own face-down one */
    assert_int_equal(t[unseen + 7], 2); /* R3: 3, Red's face-down one */
    assert_int_equal(b[unseen + 7], 3);
    assert_int_equal(t[unseen + 20], 1); /* the dragon: nobody has seen it */
    float total = 0;
    for (int i = 0; i < TYPES; i++) total += t[unseen + (size_t)i];
    assert_int_equal(total, 113); /* 108 in the pile, Blue's 4, Blue's face-down card */

    /* the action space: Red plays face up now; Y3 into Y, GH into G, B3 into
    ** B, the building joker anywhere, or the follower */
    uint8_t mask[SPACE];
    assert_int_equal(tafel_state_legal_actions_mask(s, mask, sizeof mask), 11);
    static const int legal[] = {8, 58, 71, 92, 93, 94, 95, 96, 97, 98, 99};
    for (int i = 0, k = 0; i < SPACE; i++) {
        int want = k < 11 && legal[k] == i;
        k += want;
        assert_int_equal(mask[i], want);
    }
    tafel_action a;
    tafel_error err = {0};
    char text[64];
    assert_int_equal(tafel_state_index_action(s, 71, &a, &err), TAFEL_OK);
    h_text(s, a, text, sizeof text);
    assert_string_equal(text, "play B3 B");
    assert_int_equal(tafel_state_index_action(s, 97, &a, &err), TAFEL_OK);
    h_text(s, a, text, sizeof text);
    assert_string_equal(text, "follower R");
    assert_int_equal(tafel_state_index_action(s, 9, &a, &err), TAFEL_EILLEGAL); /* Y3 into R */
    tafel_state_free(s);
    tafel_game_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_parts_and_sizes_agree),
        cmocka_unit_test(test_random_games_agree_with_the_view_and_the_legal_actions),
        cmocka_unit_test(test_bad_arguments_are_refused_with_a_reason),
        cmocka_unit_test(test_the_documented_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
