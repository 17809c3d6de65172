/*
** test_catan_tensors.c -- the Catan card game for learners
** (docs/tensors-catan_cards.md): tensor shapes and named parts, the parts
** agreeing with the view (tafel_state_view_json) and the scores, nothing a
** seat cannot see in its tensors (resampling what it cannot see leaves
** them as they were), the fixed action space (the mask is the legal
** actions' indices, both ways round), bad arguments, and the worked example
** of the docs.
*/
#include "catan_setup.h"

#include <math.h>

#define GAME "catan_cards"

/* ------------------------------------------------------------------ helpers */

static tafel_game *game;
static size_t obs_size, info_size;
static int space;

static int setup(void **unused) {
    (void)unused;
    game = h_game(GAME);
    obs_size = tafel_game_tensor_size(game, TAFEL_OBSERVATION);
    info_size = tafel_game_tensor_size(game, TAFEL_INFORMATION_STATE);
    space = tafel_game_action_space_size(game);
    return 0;
}

static int teardown(void **unused) {
    (void)unused;
    tafel_game_free(game);
    return 0;
}

/* Where the part named name starts (its size in *size); fails if none. */
static size_t part(int kind, const char *name, size_t *size) {
    size_t off, n;
    const char *got;
    for (int i = 0; (got = tafel_game_tensor_part(game, kind, i, &off, &n)); i++)
        if (!strcmp(got, name)) {
            if (size) *size = n;
            return off;
        }
    fail_msg("no part '%s'", name);
    return 0;
}

static void tensor(const tafel_state *s, int seat, int kind, float *out) {
    tafel_error err = {0};
    int rc = kind == TAFEL_OBSERVATION
                 ? tafel_state_observation_tensor(s, seat, out, obs_size, &err)
                 : tafel_state_information_state_tensor(s, seat, out, info_size, &err);
    if (rc != TAFEL_OK) fail_msg("tensor of seat %d: %s", seat, err.message);
}

static int type_of(const char *code) { return ct_type(code); }

/* The stored column of a column of the view (-14..14). */
static int stored(int col) { return col + CT_COL0; }

/* ------------------------------------------------------------- shapes */

static void shapes_and_parts(void **unused) {
    (void)unused;
    for (int kind = 0; kind < 2; kind++) {
        int dims[TAFEL_TENSOR_MAX_RANK];
        assert_int_equal(tafel_game_tensor_shape(game, kind, dims), 1);
        size_t size = tafel_game_tensor_size(game, kind), sum = 0, off, n;
        assert_int_equal((size_t)dims[0], size);
        const char *name;
        int i = 0;
        for (; (name = tafel_game_tensor_part(game, kind, i, &off, &n)); i++) {
            assert_int_equal(off, sum);
            assert_true(n > 0);
            sum += n;
            for (int j = 0; j < i; j++) /* names are unique */
                assert_string_not_equal(name, tafel_game_tensor_part(game, kind, j, NULL, NULL));
        }
        assert_int_equal(sum, size);
        assert_int_equal(i, kind == TAFEL_OBSERVATION ? 20 : 24);
    }
    /* the information state is the observation and then its additions */
    for (int i = 0; i < 20; i++) {
        size_t o1, n1, o2, n2;
        const char *a = tafel_game_tensor_part(game, TAFEL_OBSERVATION, i, &o1, &n1);
        const char *b = tafel_game_tensor_part(game, TAFEL_INFORMATION_STATE, i, &o2, &n2);
        assert_string_equal(a, b);
        assert_int_equal(o1, o2);
        assert_int_equal(n1, n2);
    }
    /* the sizes the docs give */
    assert_int_equal(obs_size, 4896);
    assert_int_equal(info_size, 5890);
    assert_int_equal(space, 3242);
}

/* Every engine action maps to at most one index, and the indices are
** exactly 0..space-1 (white-box: the module's own mapping, no state). */
static void action_space_is_a_packing(void **unused) {
    (void)unused;
    const tf_module *m = tf_registry_get(tf_registry_find(GAME));
    assert_non_null(m);
    int *hits = calloc((size_t)space, sizeof *hits), last = -1;
    assert_non_null(hits);
    for (tafel_action a = 0; a < CT_ACTIONS; a++) {
        int i = m->action_index(NULL, a);
        if (i < 0) continue;
        assert_true(i < space);
        assert_true(i > last); /* the engine's order */
        last = i;
        hits[i]++;
    }
    for (int i = 0; i < space; i++) assert_int_equal(hits[i], 1);
    free(hits);
    /* chance outcomes have none */
    assert_int_equal(m->action_index(NULL, A_DIE + 2), -1);
    assert_int_equal(m->action_index(NULL, A_STACK_CARD + CT_ABBEY), -1);
    assert_int_equal(m->action_index(NULL, A_FACE), -1);
    assert_int_equal(m->action_index(NULL, A_EVENT_CARD), -1);
    assert_int_equal(m->action_index(NULL, A_DUEL + 5), -1);
    assert_int_equal(m->action_index(NULL, CT_ACTIONS), -1);
    assert_int_equal(m->action_index(NULL, -1), -1);
}

/* ------------------------------------------------- the parts and the view */

static const char *const frame_names[] = {"self", "opponent"};

/* The part prefix_what of t, and how many of its floats are not 0. */
static const float *player_part(const float *t, const char *prefix, const char *what,
                                int *nonzero) {
    char name[64];
    size_t n;
    snprintf(name, sizeof name, "%s_%s", prefix, what);
    const float *p = t + part(TAFEL_OBSERVATION, name, &n);
    *nonzero = 0;
    for (size_t i = 0; i < n; i++) *nonzero += p[i] != 0;
    return p;
}

/* The principality and summary of who (its parts prefixed by prefix) are
** the view's. */
static void check_player(const float *t, const cJSON *info, const char *prefix) {
    int ones, expected = 0;
    const float *sum = player_part(t, prefix, "summary", &ones);
    const cJSON *res = cJSON_GetObjectItem(info, "resources");
    for (int r = 0; r < CT_RES; r++) assert_int_equal((int)sum[r], h_json_int(res, ct_res_codes[r]));
    assert_int_equal((int)sum[6], h_json_int(info, "vp"));
    assert_int_equal((int)sum[7], h_json_int(info, "strength"));
    assert_int_equal((int)sum[8], h_json_int(info, "tournament"));
    assert_int_equal((int)sum[9], h_json_int(info, "trade"));
    assert_int_equal((int)sum[10], h_json_int(info, "hand_limit"));
    assert_int_equal((int)sum[11], h_json_int(info, "hand_count"));

    const float *centre = player_part(t, prefix, "centre", &ones);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(info, "centre")) {
        const char *what = h_json_string(e, "what");
        int w = !strcmp(what, "road") ? 0 : !strcmp(what, "settlement") ? 1
              : !strcmp(what, "city") ? 2 : -1;
        if (w < 0) continue;
        expected++;
        assert_true(centre[(stored(h_json_int(e, "col")) - 1) * 3 + w] == 1);
    }
    assert_int_equal(ones, expected);

    const float *regions = player_part(t, prefix, "regions", &ones);
    expected = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(info, "regions")) {
        int c = stored(h_json_int(e, "col")), row = h_json_int(e, "row");
        const float *f = regions + ((c - 1) / 2 * 2 + (row > 0)) * 16;
        const char *kind = h_json_string(e, "kind");
        int k = 0;
        while (strcmp(ct_region_names[k], kind)) k++;
        assert_true(f[k] == 1);
        assert_true(f[6 + h_json_int(e, "number") - 1] == 1);
        assert_true(f[12 + h_json_int(e, "stock")] == 1);
        expected += 3;
    }
    assert_int_equal(ones, expected);

    const float *sites = player_part(t, prefix, "sites", &ones);
    expected = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(info, "expansions")) {
        int c = stored(h_json_int(e, "col")), row = h_json_int(e, "row");
        int ri = row == -2 ? 0 : row == -1 ? 1 : row == 1 ? 2 : 3;
        int fs = (c - 2) / 2 * 4 + ri;
        assert_true(sites[fs * CT_ALCHEMIST + type_of(h_json_string(e, "card"))] == 1);
        expected++;
    }
    assert_int_equal(ones, expected);
}

/* Counts by card type of the view's hand (cards shown, not "?"). */
static void hand_counts(const cJSON *hand, int *out) {
    memset(out, 0, sizeof(int) * CT_CARD_TYPES);
    const cJSON *e;
    cJSON_ArrayForEach(e, hand) if (strcmp(e->valuestring, "?")) out[type_of(e->valuestring)]++;
}

/* States checked in which the seat searched a stack, or looked at the other hand. */
static long searching, spying;

/* The parts of seat's tensors say what the view says. */
static void check_against_view(const tafel_state *s, int seat) {
    float *obs = malloc(obs_size * sizeof *obs), *info = malloc(info_size * sizeof *info);
    assert_non_null(obs);
    assert_non_null(info);
    tensor(s, seat, TAFEL_OBSERVATION, obs);
    tensor(s, seat, TAFEL_INFORMATION_STATE, info);
    assert_memory_equal(obs, info, obs_size * sizeof *obs); /* the observation comes first */
    cJSON *view = h_view(s, seat);
    const cJSON *players = cJSON_GetObjectItem(view, "players_info");
    int self = seat < 0 ? 0 : seat;
    double scores[2];
    tafel_state_scores(s, scores);
    for (int k = 0; k < 2; k++) {
        int who = k ? 1 - self : self;
        check_player(obs, cJSON_GetArrayItem(players, who), frame_names[k]);
        size_t off = part(TAFEL_OBSERVATION, k ? "opponent_summary" : "self_summary", NULL);
        assert_true(obs[off + 6] == (float)scores[who]); /* victory points */
    }
    /* the own hand: all of it; a spectator none */
    int counts[CT_CARD_TYPES];
    size_t hand = part(TAFEL_OBSERVATION, "self_hand", NULL);
    hand_counts(cJSON_GetObjectItem(cJSON_GetArrayItem(players, self), "hand"), counts);
    for (int t = 0; t < CT_CARD_TYPES; t++)
        assert_int_equal((int)obs[hand + t], seat < 0 ? 0 : counts[t]);
    /* the other hand, as far as the view shows it */
    hand_counts(cJSON_GetObjectItem(cJSON_GetArrayItem(players, 1 - self), "hand"), counts);
    size_t known = part(TAFEL_INFORMATION_STATE, "opponent_hand_known", NULL);
    size_t seen = part(TAFEL_OBSERVATION, "opponent_hand_seen", NULL);
    for (int t = 0; t < CT_CARD_TYPES; t++) {
        assert_int_equal((int)info[known + t], counts[t]);
        assert_true(obs[seen + t] <= (float)counts[t]);
    }
    /* the stacks: sizes, and the cards the view shows */
    const cJSON *stacks = cJSON_GetObjectItem(view, "stacks");
    size_t supply = part(TAFEL_OBSERVATION, "supply", NULL);
    size_t top = part(TAFEL_INFORMATION_STATE, "stack_known_top", NULL);
    size_t kc = part(TAFEL_INFORMATION_STATE, "stack_known_cards", NULL);
    size_t searched = part(TAFEL_OBSERVATION, "searched_stack", NULL);
    for (int k = 0; k < CT_STACKS; k++) {
        const cJSON *stack = cJSON_GetArrayItem(stacks, k);
        assert_int_equal((int)obs[supply + 4 + k], cJSON_GetArraySize(stack));
        hand_counts(stack, counts);
        for (int t = 0; t < CT_CARD_TYPES; t++)
            assert_int_equal((int)info[kc + k * CT_CARD_TYPES + t], counts[t]);
        for (int i = 0; i < 3; i++) {
            const cJSON *c = cJSON_GetArrayItem(stack, i);
            float sum = 0;
            for (int t = 0; t < CT_CARD_TYPES; t++) sum += info[top + (k * 3 + i) * CT_CARD_TYPES + t];
            if (!c || !strcmp(c->valuestring, "?")) {
                assert_true(sum == 0);
            } else {
                assert_true(sum == 1);
                assert_true(info[top + (k * 3 + i) * CT_CARD_TYPES + type_of(c->valuestring)] == 1);
            }
        }
    }
    /* the stack searched now (frame_detail names it): all of it, known */
    float searched_sum = 0;
    for (int t = 0; t < CT_CARD_TYPES; t++) searched_sum += obs[searched + t];
    if (searched_sum > 0) {
        searching++;
        size_t frame = part(TAFEL_OBSERVATION, "frame_detail", NULL);
        int k = 0;
        while (k < CT_STACKS && obs[frame + k] != 1) k++;
        assert_true(k < CT_STACKS);
        assert_true(searched_sum == obs[supply + 4 + k]);
        for (int t = 0; t < CT_CARD_TYPES; t++)
            assert_true(obs[searched + t] == info[kc + k * CT_CARD_TYPES + t]);
    }
    /* the other hand shown now (Spy, Conflict): all of it */
    float seen_sum = 0;
    for (int t = 0; t < CT_CARD_TYPES; t++) seen_sum += obs[seen + t];
    if (seen_sum > 0) {
        spying++;
        size_t other = part(TAFEL_OBSERVATION, "opponent_summary", NULL);
        assert_true(seen_sum == obs[other + 11]);
        for (int t = 0; t < CT_CARD_TYPES; t++) assert_true(obs[seen + t] == info[known + t]);
    }
    const cJSON *central = cJSON_GetObjectItem(view, "central");
    assert_int_equal((int)obs[supply], h_json_int(central, "roads"));
    assert_int_equal((int)obs[supply + 1], h_json_int(central, "settlements"));
    assert_int_equal((int)obs[supply + 2], h_json_int(central, "cities"));
    assert_int_equal((int)obs[supply + 3],
                     cJSON_GetArraySize(cJSON_GetObjectItem(view, "region_stack")));
    /* the event cards the seat knows (a spectator: those turned up) */
    if (seat >= 0) {
        const cJSON *deck = cJSON_GetObjectItem(view, "event_deck");
        size_t ev = part(TAFEL_INFORMATION_STATE, "event_deck_known", NULL);
        for (int i = 0; i < CT_EVENT_CARDS; i++) {
            const cJSON *c = cJSON_GetArrayItem(deck, i);
            for (int e = 0; e < CT_EVENT_TYPES; e++) {
                int shown = c && !strcmp(c->valuestring, ct_event_codes[e]);
                assert_int_equal((int)info[ev + i * CT_EVENT_TYPES + e], shown);
            }
        }
    }
    /* the turn */
    size_t turn = part(TAFEL_OBSERVATION, "turn", NULL);
    assert_int_equal((int)obs[turn], h_json_int(view, "turn"));
    cJSON_Delete(view);
    free(obs);
    free(info);
}

/* ------------------------------------------------- random games */

/* The mask is the legal actions' indices; both ways round; an index of no
** legal action is refused. */
static void check_actions(const tafel_state *s, uint64_t *rng) {
    int cap = tafel_game_max_actions(game);
    tafel_action *legal = malloc(sizeof *legal * (size_t)cap), a;
    uint8_t *mask = malloc((size_t)space);
    assert_non_null(legal);
    assert_non_null(mask);
    int n = tafel_state_legal_actions(s, legal, cap);
    int count = tafel_state_legal_actions_mask(s, mask, (size_t)space);
    tafel_error err = {0};
    if (tafel_state_current(s) < 0) { /* chance: no index */
        assert_int_equal(count, 0);
        for (int i = 0; i < n; i++) assert_int_equal(tafel_state_action_index(s, legal[i]), -1);
        assert_int_equal(tafel_state_index_action(s, 0, &a, &err), TAFEL_EINVAL);
    } else {
        assert_int_equal(count, n); /* every legal action has its own index */
        int ones = 0, last = -1;
        for (int i = 0; i < space; i++) ones += mask[i];
        assert_int_equal(ones, n);
        for (int i = 0; i < n; i++) {
            int k = tafel_state_action_index(s, legal[i]);
            assert_true(k > last && k < space);
            last = k;
            assert_int_equal(mask[k], 1);
            assert_int_equal(tafel_state_index_action(s, k, &a, &err), TAFEL_OK);
            assert_int_equal(a, legal[i]);
        }
        for (int tries = 0; tries < 4; tries++) {
            int k = (int)tafel_rng_below(rng, (uint32_t)space);
            int rc = tafel_state_index_action(s, k, &a, &err);
            assert_int_equal(rc, mask[k] ? TAFEL_OK : TAFEL_EILLEGAL);
        }
    }
    free(legal);
    free(mask);
}

static int tensors_differ(const tafel_state *a, const tafel_state *b, int seat, int kind,
                          float *x, float *y) {
    size_t n = kind == TAFEL_OBSERVATION ? obs_size : info_size;
    tensor(a, seat, kind, x);
    tensor(b, seat, kind, y);
    for (size_t i = 0; i < n; i++) assert_true(isfinite(x[i]));
    return memcmp(x, y, n * sizeof *x) != 0;
}

/* Many random games: at every state the actions; at every few states the
** view, determinism and the hidden-information check. */
static void random_games(void **unused) {
    (void)unused;
    int games = SLOW_BUILD ? 10 : 40, cap = tafel_game_max_actions(game);
    tafel_action *scratch = malloc(sizeof *scratch * (size_t)cap);
    float *x = malloc(info_size * sizeof *x), *y = malloc(info_size * sizeof *y);
    assert_non_null(scratch);
    assert_non_null(x);
    assert_non_null(y);
    long checked = 0, other_changed[2] = {0}, states = 0;
    uint64_t rng = tafel_rng_seed(27);
    for (int g = 0; g < games; g++) {
        tafel_state *s = tafel_state_new(game), *copy = tafel_state_new(game);
        assert_non_null(s);
        assert_non_null(copy);
        for (int step = 0; tafel_state_current(s) != TAFEL_TERMINAL; step++) {
            check_actions(s, &rng);
            states++;
            if (step % (SLOW_BUILD ? 97 : 23) == 0) {
                for (int seat = -1; seat < 2; seat++) check_against_view(s, seat);
                for (int seat = 0; seat < 2; seat++) {
                    /* written twice, into dirty memory: the same */
                    memset(y, 0x7f, info_size * sizeof *y);
                    tensor(s, seat, TAFEL_INFORMATION_STATE, x);
                    tensor(s, seat, TAFEL_INFORMATION_STATE, y);
                    assert_memory_equal(x, y, info_size * sizeof *x);
                    /* what seat cannot see, resampled: its tensors and the
                    ** spectator's stay, the other seat's may change */
                    tafel_state_copy(copy, s);
                    assert_int_equal(tafel_state_resample(copy, seat, &rng), TAFEL_OK);
                    for (int kind = 0; kind < 2; kind++) {
                        assert_false(tensors_differ(s, copy, seat, kind, x, y));
                        assert_false(tensors_differ(s, copy, -1, kind, x, y));
                    }
                    other_changed[seat] += tensors_differ(s, copy, 1 - seat, TAFEL_OBSERVATION, x, y);
                    checked++;
                }
            }
            assert_int_equal(tafel_state_play_random(s, &rng, scratch, cap, NULL), TAFEL_OK);
        }
        check_actions(s, &rng); /* the end: no index */
        for (int seat = -1; seat < 2; seat++) check_against_view(s, seat);
        tafel_state_free(s);
        tafel_state_free(copy);
    }
    print_message("%ld states, %ld resamples; the other seat's tensor changed %ld + %ld times; "
                  "%ld views during a search, %ld during a Spy or Conflict\n",
                  states, checked, other_changed[0], other_changed[1], searching, spying);
    assert_true(searching > 0);
    assert_true(other_changed[0] > 0 && other_changed[1] > 0);
    free(scratch);
    free(x);
    free(y);
}

/* ------------------------------------------------- bad arguments */

static void bad_arguments(void **unused) {
    (void)unused;
    tafel_state *s = tafel_state_new(game);
    float *t = malloc(info_size * sizeof *t);
    assert_non_null(t);
    tafel_error err = {0};
    assert_int_equal(tafel_state_observation_tensor(s, 0, t, obs_size - 1, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "floats given"));
    assert_int_equal(tafel_state_observation_tensor(s, 2, t, obs_size, &err), TAFEL_EINVAL);
    assert_non_null(strstr(err.message, "no seat 2"));
    assert_int_equal(tafel_state_observation_tensor(s, -2, t, obs_size, &err), TAFEL_EINVAL);
    assert_int_equal(tafel_state_information_state_tensor(s, 0, NULL, info_size, &err),
                     TAFEL_EINVAL);
    assert_int_equal(tafel_state_information_state_tensor(s, 0, t, obs_size, &err),
                     TAFEL_EINVAL);
    int dims[TAFEL_TENSOR_MAX_RANK];
    assert_int_equal(tafel_game_tensor_shape(game, 7, dims), -1);
    assert_int_equal(tafel_game_tensor_size(game, 7), 0);
    assert_null(tafel_game_tensor_part(game, TAFEL_OBSERVATION, 20, NULL, NULL));
    assert_null(tafel_game_tensor_part(game, TAFEL_INFORMATION_STATE, 24, NULL, NULL));
    assert_null(tafel_game_tensor_part(game, TAFEL_OBSERVATION, -1, NULL, NULL));
    /* the start is a chance node (the shuffle): no index */
    tafel_action a;
    assert_int_equal(tafel_state_index_action(s, 0, &a, &err), TAFEL_EINVAL);
    tafel_state_free(s);
    /* at a decision: out of range, and no legal action */
    s = ct_game("abbey sawmill brigands", "conrad bishop caravan");
    assert_int_equal(tafel_state_index_action(s, -1, &a, &err), TAFEL_EINVAL);
    assert_int_not_equal(tafel_state_index_action(s, space, &a, &err), TAFEL_OK);
    assert_int_equal(tafel_state_index_action(s, 0, &a, &err), TAFEL_EILLEGAL);
    assert_non_null(strstr(err.message, "action index 0"));
    assert_int_equal(tafel_state_index_action(s, 0, NULL, &err), TAFEL_EINVAL);
    uint8_t small[8];
    assert_int_equal(tafel_state_legal_actions_mask(s, small, sizeof small), -1);
    assert_int_equal(tafel_state_action_index(s, -5), -1);
    assert_int_equal(tafel_state_action_index(s, 1 << 20), -1);
    tafel_state_free(s);
    free(t);
}

/* ------------------------------------------------- the worked example */

/* docs/tensors-catan_cards.md, "A worked example": seat 0 holds abbey,
** sawmill and brigands (from stack 1), seat 1 conrad, bishop and caravan
** (from stack 2); both arranged "G O W L B Au"; seat 0 rolls 3 with the
** trade face (nothing happens) and is in its main phase. */
static void worked_example(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("abbey sawmill brigands", "conrad bishop caravan");
    h_script(s, "0 roll; c die 3; c event-die trade");
    float *o = malloc(info_size * sizeof *o);
    assert_non_null(o);
    tensor(s, 0, TAFEL_INFORMATION_STATE, o);
    /* the offsets the docs give */
    assert_int_equal(part(TAFEL_OBSERVATION, "self_regions", NULL), 81);
    assert_int_equal(part(TAFEL_OBSERVATION, "self_summary", NULL), 2297);
    assert_int_equal(part(TAFEL_OBSERVATION, "self_hand", NULL), 2311);
    assert_int_equal(part(TAFEL_OBSERVATION, "opponent_summary", NULL), 4652);
    assert_int_equal(part(TAFEL_OBSERVATION, "phase", NULL), 4754);
    assert_int_equal(part(TAFEL_OBSERVATION, "supply", NULL), 4851);
    assert_int_equal(part(TAFEL_INFORMATION_STATE, "stack_known_cards", NULL), 5556);
    /* centre: settlements at columns 0 and 2, the road at 1 */
    assert_true(o[40] == 1 && o[42] == 1 && o[46] == 1);
    /* the region at column -1, row -1: fields (4), number 1, holding 1 */
    assert_true(o[81 + 12 * 16 + 4] == 1);
    assert_true(o[81 + 12 * 16 + 6] == 1);
    assert_true(o[81 + 12 * 16 + 13] == 1);
    /* the pasture at column 3, row -1 (number 3) produced: it holds 2 */
    assert_true(o[81 + 16 * 16 + 1] == 1 && o[81 + 16 * 16 + 6 + 2] == 1);
    assert_true(o[81 + 16 * 16 + 12 + 2] == 1);
    /* summary: one of each resource but 2 wool, 2 points, hand limit 3, 3 cards */
    for (int r = 0; r < 6; r++) assert_true(o[2297 + r] == (r == CT_WOOL ? 2 : 1));
    assert_true(o[2297 + 6] == 2 && o[2297 + 10] == 3 && o[2297 + 11] == 3);
    /* the hand: abbey (type 0), sawmill (6), brigands (37) */
    assert_true(o[2311 + 0] == 1 && o[2311 + 6] == 1 && o[2311 + 37] == 1);
    float hand = 0;
    for (int t = 0; t < 44; t++) hand += o[2311 + t];
    assert_true(hand == 3);
    /* the other seat holds 3 cards, none of them shown */
    assert_true(o[4652 + 11] == 3);
    /* phase: main (kind 12), the actor is the seat itself */
    assert_true(o[4754 + 12] == 1 && o[4794] == 1);
    /* the die: 3 */
    size_t dice = part(TAFEL_OBSERVATION, "dice", NULL);
    assert_true(o[dice + 2] == 1 && o[dice + 6 + 1] == 1);
    /* seat 0 searched stack 1: it knows its 10 cards, the top 3 by slot */
    size_t known = part(TAFEL_INFORMATION_STATE, "stack_known_cards", NULL);
    float in_stack1 = 0, in_stack2 = 0;
    for (int t = 0; t < 44; t++) in_stack1 += o[known + t], in_stack2 += o[known + 44 + t];
    assert_true(in_stack1 == 10 && in_stack2 == 0);
    /* actions: "build abbey 0 -1" is index 1211, "end" 793 */
    tafel_action a, want;
    tafel_error err = {0};
    assert_int_equal(tafel_action_from_text(s, "build abbey 0 -1", &want, &err), TAFEL_OK);
    assert_int_equal(tafel_state_action_index(s, want), 1211);
    assert_int_equal(tafel_state_index_action(s, 1211, &a, &err), TAFEL_OK);
    assert_int_equal(a, want);
    assert_int_equal(tafel_action_from_text(s, "end", &want, &err), TAFEL_OK);
    assert_int_equal(tafel_state_action_index(s, want), 793);
    /* "build abbey 2 1": site (2 + 2) / 2 * 4 + 2 = 30: index 1186 + 30 */
    assert_int_equal(tafel_action_from_text(s, "build abbey 2 1", &want, &err), TAFEL_OK);
    assert_int_equal(tafel_state_action_index(s, want), 1216);
    free(o);
    tafel_state_free(s);
}

/* The float of card code in part name (a part by card type), and a part's sum. */
static float card(const float *t, int kind, const char *name, const char *code) {
    return t[part(kind, name, NULL) + (size_t)type_of(code)];
}

static float total(const float *t, int kind, const char *name) {
    size_t n, off = part(kind, name, &n);
    float sum = 0;
    for (size_t i = 0; i < n; i++) sum += t[off + i];
    return sum;
}

/* A Spy shows the other hand: in the observation while the spy looks at
** it, in the information state from then on; the other seat and a
** spectator see none of it. */
static void spy_shows_the_other_hand(void **unused) {
    (void)unused;
    tafel_state *s = ct_game("abbey sawmill spy", "conrad bishop caravan");
    ct_quiet_turn(s, 0);
    ct_quiet_turn(s, 1);
    h_script(s, "0 roll; c die 3; c event-die trade; 0 play spy");
    float *o = malloc(info_size * sizeof *o);
    assert_non_null(o);
    const int I = TAFEL_INFORMATION_STATE;
    tensor(s, 0, I, o);
    assert_true(o[part(I, "phase", NULL) + F_SPY_TAKE] == 1);
    assert_true(card(o, I, "opponent_hand_seen", "conrad") == 1);
    assert_true(card(o, I, "opponent_hand_seen", "bishop") == 1);
    assert_true(card(o, I, "opponent_hand_seen", "caravan") == 1);
    assert_true(total(o, I, "opponent_hand_seen") == 3);
    assert_true(total(o, I, "opponent_hand_known") == 3);
    for (int seat = -1; seat < 2; seat += 2) { /* seat 1, and a spectator */
        tensor(s, seat, I, o);
        assert_true(total(o, I, "opponent_hand_seen") == 0);
        assert_true(total(o, I, "opponent_hand_known") == 0);
    }
    h_script(s, "0 take caravan");
    tensor(s, 0, I, o);
    assert_true(total(o, I, "opponent_hand_seen") == 0); /* no longer looking */
    assert_true(card(o, I, "opponent_hand_known", "conrad") == 1); /* remembered */
    assert_true(card(o, I, "opponent_hand_known", "bishop") == 1);
    assert_true(total(o, I, "opponent_hand_known") == 2);
    assert_true(card(o, I, "self_hand", "caravan") == 1);
    assert_true(o[part(I, "played_out", NULL) + CT_SPY - CT_ALCHEMIST] == 1);
    /* seat 1 knows stack 2 (its start cards), not stack 1; a spectator neither */
    tensor(s, 1, I, o);
    size_t known = part(I, "stack_known_cards", NULL);
    float k1 = 0, k2 = 0;
    for (int t = 0; t < CT_CARD_TYPES; t++) k1 += o[known + t], k2 += o[known + 44 + t];
    assert_true(k1 == 0 && k2 == 10);
    tensor(s, -1, I, o);
    assert_true(total(o, I, "stack_known_cards") == 0 && total(o, I, "self_hand") == 0);
    free(o);
    tafel_state_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shapes_and_parts),
        cmocka_unit_test(action_space_is_a_packing),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(worked_example),
        cmocka_unit_test(spy_shows_the_other_hand),
        cmocka_unit_test(random_games),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
