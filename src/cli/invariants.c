/*
** invariants.c -- the generic invariants of tafel.h (see invariants.h).
**
** Only the public API: whatever a game keeps inside, these hold for every
** game.  The game's own conservation laws (followers, tiles, cards) are its
** tafel_state_check, which inv_check_position runs first.  A failure is
** described in inv->why, with numbers and texts, so that a soak that runs
** for hours can say at once what broke.
*/
#include "invariants.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(inv_checker *inv, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(inv->why, sizeof inv->why, fmt, ap);
    va_end(ap);
    return 1;
}

int inv_init(inv_checker *inv, const tafel_game *game) {
    memset(inv, 0, sizeof *inv);
    inv->players = tafel_game_players(game);
    inv->cap = tafel_game_max_actions(game);
    inv->distinct = tafel_game_num_distinct_actions(game);
    size_t n = (size_t)inv->cap + 1;
    inv->legal = malloc(n * sizeof *inv->legal);
    inv->outcomes = malloc(n * sizeof *inv->outcomes);
    inv->fast_list = malloc(n * sizeof *inv->fast_list);
    inv->prob = malloc(n * sizeof *inv->prob);
    inv->copy = tafel_state_new(game);
    inv->other = tafel_state_new(game);
    inv->again = tafel_state_new(game);
    inv->fast = tafel_state_new(game);
    inv->before = tafel_state_new(game);
    inv->last = -1;
    inv->tensor_size[0] = tafel_game_tensor_size(game, TAFEL_OBSERVATION);
    inv->tensor_size[1] = tafel_game_tensor_size(game, TAFEL_INFORMATION_STATE);
    size_t most = inv->tensor_size[0] > inv->tensor_size[1] ? inv->tensor_size[0]
                                                            : inv->tensor_size[1];
    inv->tensor = malloc((most + 1) * sizeof *inv->tensor);
    inv->tensor_again = malloc((most + 1) * sizeof *inv->tensor_again);
    inv->space = tafel_game_action_space_size(game);
    inv->mask = malloc((size_t)inv->space + 1);
    if (inv->legal && inv->outcomes && inv->fast_list && inv->prob && inv->copy &&
        inv->other && inv->again && inv->fast && inv->before && inv->tensor &&
        inv->tensor_again && inv->mask)
        return TAFEL_OK;
    inv_free(inv);
    return TAFEL_ENOMEM;
}

void inv_free(inv_checker *inv) {
    free(inv->legal);
    free(inv->outcomes);
    free(inv->fast_list);
    free(inv->prob);
    tafel_state_free(inv->copy);
    tafel_state_free(inv->other);
    tafel_state_free(inv->again);
    tafel_state_free(inv->fast);
    tafel_state_free(inv->before);
    free(inv->tensor);
    free(inv->tensor_again);
    free(inv->mask);
    memset(inv, 0, sizeof *inv);
}

static int check_state(inv_checker *inv, const tafel_state *state, const char *what) {
    tafel_error err = {0, ""};
    int rc = tafel_state_check(state, &err);
    return rc ? fail(inv, "%s: %s (%s)", what, err.message, tafel_status_string(rc)) : 0;
}

static int check_copies(inv_checker *inv, const tafel_state *state) {
    tafel_state *clone = tafel_state_clone(state);
    if (!clone) return fail(inv, "tafel_state_clone: out of memory");
    int equal = tafel_state_equal(clone, state);
    tafel_state_free(clone);
    if (!equal) return fail(inv, "a clone does not compare equal");
    tafel_state_copy(inv->copy, state);
    if (!tafel_state_equal(inv->copy, state)) return fail(inv, "a copy does not compare equal");
    return 0;
}

/* At a chance node the outcomes are the legal list, each likely, in sum 1;
** elsewhere there are none. */
static int check_chance(inv_checker *inv, const tafel_state *state, int current) {
    int n = inv->nlegal;
    int k = tafel_state_chance_outcomes(state, inv->outcomes, inv->prob, inv->cap);
    if (current != TAFEL_CHANCE)
        return k ? fail(inv, "%d chance outcomes at a %s", k,
                        current == TAFEL_TERMINAL ? "terminal state" : "seat's turn")
                 : 0;
    if (k != n || memcmp(inv->outcomes, inv->legal, (size_t)n * sizeof *inv->legal))
        return fail(inv, "the %d chance outcomes are not the %d legal actions", k, n);
    double sum = 0;
    for (int i = 0; i < k; i++) {
        if (!(inv->prob[i] > 0))
            return fail(inv, "chance outcome %d has probability %g", (int)inv->outcomes[i],
                        inv->prob[i]);
        sum += inv->prob[i];
    }
    return fabs(sum - 1) > 1e-9 ? fail(inv, "chance probabilities sum to %.12f", sum) : 0;
}

int inv_check_position(inv_checker *inv, const tafel_state *state) {
    inv->nlegal = 0;
    if (check_state(inv, state, "tafel_state_check") || check_copies(inv, state)) return 1;
    int current = tafel_state_current(state), players = inv->players;
    if (current != TAFEL_CHANCE && current != TAFEL_TERMINAL && (current < 0 || current >= players))
        return fail(inv, "tafel_state_current is %d, not a seat of %d", current, players);
    int n = tafel_state_legal_actions(state, inv->legal, inv->cap);
    if (n < 0 || n > inv->cap)
        return fail(inv, "%d legal actions, more than the game's bound %d", n, inv->cap);
    inv->nlegal = n;
    if ((current == TAFEL_TERMINAL) != (n == 0))
        return fail(inv, "%d legal actions %s", n,
                    n ? "at a terminal state" : "but the game is not over");
    for (int i = 0; i < n; i++) {
        if (i && inv->legal[i - 1] >= inv->legal[i])
            return fail(inv, "legal actions not sorted and unique: %d then %d",
                        (int)inv->legal[i - 1], (int)inv->legal[i]);
        if (inv->legal[i] < 0 || inv->legal[i] >= inv->distinct)
            return fail(inv, "legal action %d is outside 0..%d, the game's "
                        "tafel_game_num_distinct_actions", (int)inv->legal[i], inv->distinct - 1);
        if (!tafel_state_is_legal(state, inv->legal[i]))
            return fail(inv, "listed action %d is not tafel_state_is_legal", (int)inv->legal[i]);
    }
    return check_chance(inv, state, current);
}

/* inv->copy, resampled for seat, and a copy of it resampled again differ
** only in what seat cannot see: resampled both with the same rng, they
** must come out the same, or a bot deciding on a resampled copy would act
** on what it may not know. */
static int check_resample_reads_only_the_view(inv_checker *inv, int seat, uint64_t *rng) {
    uint64_t same = tafel_rng_next(rng), r1 = same, r2 = same;
    tafel_state_copy(inv->other, inv->copy);
    tafel_state_copy(inv->again, inv->copy);
    if (tafel_state_resample(inv->other, seat, rng) ||
        tafel_state_resample(inv->again, seat, &r1) ||
        tafel_state_resample(inv->other, seat, &r2))
        return fail(inv, "tafel_state_resample for seat %d failed", seat);
    if (!tafel_state_equal(inv->again, inv->other))
        return fail(inv, "resampling for seat %d depends on what it cannot see", seat);
    return 0;
}

static int compare_views(inv_checker *inv, const tafel_state *state, int seat) {
    char *before = tafel_state_view_json(state, seat);
    char *after = tafel_state_view_json(inv->copy, seat);
    int rc = !before || !after ? fail(inv, "tafel_state_view_json: out of memory")
           : strcmp(before, after)
               ? fail(inv, "seat %d's view changed when what it cannot see was "
                           "resampled:\n%.200s\n%.200s", seat, before, after)
               : 0;
    free(before);
    free(after);
    return rc;
}

int inv_check_views(inv_checker *inv, const tafel_state *state, uint64_t *rng) {
    for (int seat = 0; seat < inv->players; seat++) {
        tafel_state_copy(inv->copy, state);
        if (tafel_state_resample(inv->copy, seat, rng))
            return fail(inv, "tafel_state_resample for seat %d failed", seat);
        if (check_state(inv, inv->copy, "tafel_state_check after resampling")) return 1;
        if (tafel_state_current(inv->copy) != tafel_state_current(state))
            return fail(inv, "resampling for seat %d changed who is to move", seat);
        if (compare_views(inv, state, seat)) return 1;
        inv->resamples++;
        inv->resamples_changed += !tafel_state_equal(inv->copy, state);
        if (check_resample_reads_only_the_view(inv, seat, rng)) return 1;
    }
    return 0;
}

/* ---- the learners' calls ------------------------------------------------ */

static const char *const kind_names[2] = {"observation", "information-state"};

static int write_tensor(inv_checker *inv, const tafel_state *state, int seat, int kind,
                        float *out) {
    tafel_error err = {0, ""};
    int rc = kind == TAFEL_OBSERVATION
                 ? tafel_state_observation_tensor(state, seat, out, inv->tensor_size[kind], &err)
                 : tafel_state_information_state_tensor(state, seat, out,
                                                        inv->tensor_size[kind], &err);
    return rc ? fail(inv, "seat %d's %s tensor: %s", seat, kind_names[kind], err.message) : 0;
}

/* Seat's tensors of state, written twice alike and finite; left in
** inv->tensor (the last kind). */
static int check_tensors(inv_checker *inv, const tafel_state *state, int seat) {
    for (int kind = 0; kind < 2; kind++) {
        size_t n = inv->tensor_size[kind];
        if (write_tensor(inv, state, seat, kind, inv->tensor) ||
            write_tensor(inv, state, seat, kind, inv->tensor_again))
            return 1;
        if (memcmp(inv->tensor, inv->tensor_again, n * sizeof *inv->tensor))
            return fail(inv, "seat %d's %s tensor differs when written again", seat,
                        kind_names[kind]);
        for (size_t i = 0; i < n; i++)
            if (!isfinite(inv->tensor[i]))
                return fail(inv, "seat %d's %s tensor holds %g at %zu", seat,
                            kind_names[kind], (double)inv->tensor[i], i);
    }
    return 0;
}

/* The tensors of inv->copy (state resampled for seat) are seat's tensors of
** state. */
static int compare_tensors(inv_checker *inv, const tafel_state *state, int seat) {
    for (int kind = 0; kind < 2; kind++) {
        size_t n = inv->tensor_size[kind];
        if (write_tensor(inv, state, seat, kind, inv->tensor) ||
            write_tensor(inv, inv->copy, seat, kind, inv->tensor_again))
            return 1;
        for (size_t i = 0; i < n; i++)
            if (inv->tensor[i] != inv->tensor_again[i])
                return fail(inv, "seat %d's %s tensor changed at %zu (%g, then %g) when what "
                            "it cannot see was resampled", seat, kind_names[kind], i,
                            (double)inv->tensor[i], (double)inv->tensor_again[i]);
    }
    return 0;
}

static int check_mask(inv_checker *inv, const tafel_state *state, uint64_t *rng) {
    int current = tafel_state_current(state);
    int count = tafel_state_legal_actions_mask(state, inv->mask, (size_t)inv->space);
    if (current < 0)
        return count ? fail(inv, "a legal mask of %d at a %s", count,
                            current == TAFEL_CHANCE ? "chance node" : "terminal state")
                     : 0;
    int indexed = 0;
    for (int i = 0; i < inv->nlegal; i++) {
        tafel_action a = inv->legal[i], back = -1;
        int k = tafel_state_action_index(state, a);
        if (k < 0) {
            inv->unindexed++;
            continue;
        }
        tafel_error err = {0, ""};
        if (k >= inv->space || !inv->mask[k])
            return fail(inv, "legal action %d has index %d, not in the mask", (int)a, k);
        if (tafel_state_index_action(state, k, &back, &err) || back != a)
            return fail(inv, "index %d of action %d maps back to %d (%s)", k, (int)a,
                        (int)back, err.message);
        indexed++;
    }
    inv->indexed += indexed;
    if (count != indexed)
        return fail(inv, "the mask has %d indices for %d legal actions with an index", count,
                    indexed);
    /* an index the mask does not hold is no action here */
    int k = (int)tafel_rng_below(rng, (uint32_t)inv->space);
    tafel_action a;
    if (!inv->mask[k] && tafel_state_index_action(state, k, &a, NULL) == TAFEL_OK)
        return fail(inv, "index %d is not in the mask, but maps to action %d", k, (int)a);
    return 0;
}

int inv_check_learners(inv_checker *inv, const tafel_state *state, uint64_t *rng,
                       int views) {
    if (inv->space > 0 && check_mask(inv, state, rng)) return 1;
    if (!inv->tensor_size[0]) return 0;
    for (int seat = -1; seat < inv->players; seat++)
        if (check_tensors(inv, state, seat)) return 1;
    if (!views) return 0;
    for (int seat = 0; seat < inv->players; seat++) {
        tafel_state_copy(inv->copy, state);
        if (tafel_state_resample(inv->copy, seat, rng))
            return fail(inv, "tafel_state_resample for seat %d failed", seat);
        if (compare_tensors(inv, state, seat)) return 1;
    }
    return 0;
}

/* The action's text, which must read back as the action. */
static int check_text(inv_checker *inv, const tafel_state *state, tafel_action action) {
    int len = tafel_action_to_text(state, action, inv->text, sizeof inv->text);
    if (len <= 0 || len >= (int)sizeof inv->text)
        return fail(inv, "action %d has no text (tafel_action_to_text gave %d)", (int)action,
                    len);
    tafel_action back = -1;
    tafel_error err = {0, ""};
    if (tafel_action_from_text(state, inv->text, &back, &err))
        return fail(inv, "the text '%s' does not read back: %s", inv->text, err.message);
    if (back != action)
        return fail(inv, "the text '%s' of action %d reads back as %d", inv->text,
                    (int)action, (int)back);
    return 0;
}

/* The step tafel_state_play_random takes from inv->fast with *rng. */
static int play_fast(inv_checker *inv, const tafel_state *state, uint64_t rng,
                     tafel_action *played, uint64_t *rng_after) {
    tafel_state_copy(inv->fast, state);
    int rc = tafel_state_play_random(inv->fast, &rng, inv->fast_list, inv->cap, played);
    *rng_after = rng;
    return rc;
}

int inv_step(inv_checker *inv, tafel_state *state, uint64_t *rng, tafel_record *record) {
    tafel_action fast_a = -1, a;
    uint64_t fast_rng;
    int fast_rc = play_fast(inv, state, *rng, &fast_a, &fast_rng);
    inv->text[0] = 0;
    if (inv->nlegal == 0)
        return fast_rc != TAFEL_ESTATE || !tafel_state_equal(inv->fast, state)
                   ? fail(inv, "tafel_state_play_random at a terminal state gave %s",
                          tafel_status_string(fast_rc))
                   : 0;
    if (tafel_state_current(state) == TAFEL_CHANCE) {
        if (tafel_state_sample_chance(state, rng, &a))
            return fail(inv, "tafel_state_sample_chance failed at a chance node");
    } else {
        a = inv->legal[tafel_rng_below(rng, (uint32_t)inv->nlegal)];
    }
    if (!tafel_state_is_legal(state, a)) return fail(inv, "drawn action %d is not legal", (int)a);
    if (check_text(inv, state, a)) return 1;
    if (fast_rc || fast_a != a || fast_rng != *rng)
        return fail(inv, "tafel_state_play_random gave %s, action %d, where listing "
                         "and drawing gave %d%s", tafel_status_string(fast_rc), (int)fast_a,
                    (int)a, fast_rng != *rng ? ", and drew differently" : "");
    if (record && tafel_record_push(record, state, a))
        return fail(inv, "tafel_record_push failed");
    int move = tafel_state_move_number(state);
    tafel_error err = {0, ""};
    tafel_state_copy(inv->before, state);
    inv->last = a;
    if (tafel_state_apply(state, a, &err))
        return fail(inv, "a legal action was refused: %s", err.message);
    if (tafel_state_move_number(state) != move + 1)
        return fail(inv, "the move number went from %d to %d", move,
                    tafel_state_move_number(state));
    if (!tafel_state_equal(inv->fast, state))
        return fail(inv, "tafel_state_play_random reached another state");
    return 0;
}

int inv_check_record(inv_checker *inv, const tafel_record *record, const tafel_state *state) {
    int moves = tafel_state_move_number(state);
    if (tafel_record_action_count(record) != moves)
        return fail(inv, "the record holds %d actions, not %d",
                    tafel_record_action_count(record), moves);
    char *json = tafel_record_to_json(record);
    if (!json) return fail(inv, "tafel_record_to_json: out of memory");
    tafel_record *parsed = NULL;
    tafel_game *game = NULL;
    tafel_state *replay = NULL;
    tafel_error err = {0, ""};
    int rc = tafel_record_from_json(json, &parsed, &err) ? fail(inv, "record from JSON: %s",
                                                                err.message)
           : tafel_record_replay(parsed, &game, &replay, &err)
               ? fail(inv, "the record does not replay: %s", err.message)
           : !tafel_state_equal(replay, state)
               ? fail(inv, "the record replays to another state")
               : 0;
    tafel_state_free(replay);
    tafel_game_free(game);
    tafel_record_free(parsed);
    free(json);
    return rc;
}

void inv_account_start(inv_checker *inv, const tafel_state *state) {
    tafel_state_scores(state, inv->start_scores);
    memset(inv->account_points, 0, sizeof inv->account_points);
    inv->last = -1;
}

/* seat's account of inv->last played in from, parsed; NULL after a failure
** (described in inv->why). */
static cJSON *account(inv_checker *inv, const tafel_state *from, int seat, char **text) {
    tafel_error err = {0, ""};
    *text = NULL;
    int rc = tafel_state_describe(from, inv->last, seat, text, &err);
    if (rc) {
        fail(inv, "tafel_state_describe for seat %d of '%s': %s", seat, inv->text, err.message);
        return NULL;
    }
    cJSON *events = cJSON_Parse(*text);
    int ok = cJSON_IsArray(events);
    for (cJSON *e = events ? events->child : NULL; ok && e; e = e->next)
        ok = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "kind"));
    if (!ok) {
        fail(inv, "the account of '%s' for seat %d is not an array of events with a kind: "
                  "%.200s", inv->text, seat, *text);
        cJSON_Delete(events);
        return NULL;
    }
    return events;
}

/* The points of an account, seat by seat; 1 (described) when a "points" is
** not one number per seat. */
static int add_points(inv_checker *inv, const cJSON *events, double *sum) {
    for (int p = 0; p < inv->players; p++) sum[p] = 0;
    for (const cJSON *e = events->child; e; e = e->next) {
        const cJSON *points = cJSON_GetObjectItemCaseSensitive(e, "points");
        if (!points) continue;
        if (!cJSON_IsArray(points) || cJSON_GetArraySize(points) != inv->players)
            return fail(inv, "an event of '%s' has points that are not one number per seat",
                        inv->text);
        int p = 0;
        for (const cJSON *v = points->child; v; v = v->next, p++) {
            if (!cJSON_IsNumber(v))
                return fail(inv, "an event of '%s' has a point that is no number", inv->text);
            sum[p] += v->valuedouble;
        }
    }
    return 0;
}

/* Whether inv->last shows seat the same in inv->before and in inv->copy (its
** resampled twin): an action that reveals a card (a draw, a scoring that
** turns cards up) tells each world its own card, and only where the seat
** learns the same may its accounts be held to be the same. */
static int same_view_after(inv_checker *inv, int seat) {
    tafel_state_copy(inv->other, inv->before);
    tafel_state_copy(inv->again, inv->copy);
    if (tafel_state_apply(inv->other, inv->last, NULL) ||
        tafel_state_apply(inv->again, inv->last, NULL))
        return 0;
    char *a = tafel_state_view_json(inv->other, seat), *b = tafel_state_view_json(inv->again, seat);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

static int check_seat_account(inv_checker *inv, int seat, const char *spectator_text,
                              const double *spectator_points, uint64_t *rng) {
    char *text;
    cJSON *events = account(inv, inv->before, seat, &text);
    if (!events) return 1;
    double points[TAFEL_MAX_PLAYERS];
    int rc = add_points(inv, events, points);
    cJSON_Delete(events);
    for (int p = 0; !rc && p < inv->players; p++)
        if (points[p] != spectator_points[p])
            rc = fail(inv, "seat %d is told %g points for seat %d in '%s', a spectator %g", seat,
                      points[p], p, inv->text, spectator_points[p]);
    (void)spectator_text;
    /* the same account from a position that differs only in what seat
    ** cannot see */
    tafel_state_copy(inv->copy, inv->before);
    if (!rc && tafel_state_resample(inv->copy, seat, rng))
        rc = fail(inv, "tafel_state_resample for seat %d failed", seat);
    if (!rc && tafel_state_is_legal(inv->copy, inv->last) &&
        same_view_after(inv, seat)) {
        char *other = NULL;
        tafel_error err = {0, ""};
        if (tafel_state_describe(inv->copy, inv->last, seat, &other, &err))
            rc = fail(inv, "tafel_state_describe after resampling: %s", err.message);
        else if (strcmp(text, other))
            rc = fail(inv, "seat %d's account of '%s' changed when what it cannot see was "
                           "resampled:\n%.300s\n%.300s", seat, inv->text, text, other);
        else
            inv->accounts_compared++;
        free(other);
    }
    free(text);
    return rc;
}

int inv_check_account(inv_checker *inv, const tafel_state *state, uint64_t *rng, int views) {
    if (inv->last < 0) return 0;
    char *text;
    cJSON *events = account(inv, inv->before, -1, &text);
    if (!events) return 1;
    double points[TAFEL_MAX_PLAYERS], before[TAFEL_MAX_PLAYERS], after[TAFEL_MAX_PLAYERS];
    int rc = add_points(inv, events, points);
    cJSON_Delete(events);
    tafel_state_scores(inv->before, before);
    tafel_state_scores(state, after);
    for (int p = 0; !rc && p < inv->players; p++) {
        if (points[p] != after[p] - before[p])
            rc = fail(inv, "the account of '%s' gives seat %d %g points, but its score went "
                           "from %g to %g: %.300s", inv->text, p, points[p], before[p], after[p],
                      text);
        inv->account_points[p] += points[p];
    }
    for (int seat = 0; !rc && views && seat < inv->players; seat++)
        rc = check_seat_account(inv, seat, text, points, rng);
    free(text);
    inv->last = -1;
    if (rc || tafel_state_current(state) != TAFEL_TERMINAL) return rc;
    for (int p = 0; p < inv->players; p++)
        if (inv->start_scores[p] + inv->account_points[p] != after[p])
            return fail(inv, "the accounts of the whole game give seat %d %g points from %g, "
                             "but it ended with %g", p, inv->account_points[p],
                        inv->start_scores[p], after[p]);
    return 0;
}
