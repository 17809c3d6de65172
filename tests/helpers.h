/*
** helpers.h -- small helpers shared by the test suites (cmocka).
**
** Everything here goes through the public API only, so that a test reads
** like the rules: play(s, "draw E", "place 0 1 180", "follower city S").
** Each helper fails the running test with the engine's own message when a
** call that should succeed does not.  Functions are static inline so that
** a suite that uses only some of them still compiles with -Werror.
*/
#ifndef TAFEL_TEST_HELPERS_H
#define TAFEL_TEST_HELPERS_H

#include <setjmp.h>
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "tafel.h"

/* 1 in the sanitizer build, where suites play fewer games. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOW_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOW_BUILD 1
#endif
#endif
#ifndef SLOW_BUILD
#define SLOW_BUILD 0
#endif

/* A game loaded from its string, failing the test when it does not load. */
static inline tafel_game *h_game(const char *game_string) {
    tafel_game *g = NULL;
    tafel_error err = {0};
    int rc = tafel_game_load(game_string, &g, &err);
    if (rc != TAFEL_OK) fail_msg("loading '%s': %s", game_string, err.message);
    assert_non_null(g);
    return g;
}

/* The initial state of a game string (the game is freed: states do not
** point to it). */
static inline tafel_state *h_state(const char *game_string) {
    tafel_game *g = h_game(game_string);
    tafel_state *s = tafel_state_new(g);
    assert_non_null(s);
    tafel_game_free(g);
    return s;
}

/* Apply action texts in order (NULL-terminated), each one must succeed. */
static inline void h_play_list(tafel_state *s, const char *first, va_list ap) {
    for (const char *text = first; text; text = va_arg(ap, const char *)) {
        tafel_error err = {0};
        int rc = tafel_state_apply_text(s, text, &err);
        if (rc != TAFEL_OK)
            fail_msg("action '%s' (move %d) failed: %s (%s)", text,
                     tafel_state_move_number(s), tafel_status_string(rc),
                     err.message);
    }
}

static inline void h_play(tafel_state *s, const char *first, ...) {
    va_list ap;
    va_start(ap, first);
    h_play_list(s, first, ap);
    va_end(ap);
}

#define play(s, ...) h_play((s), __VA_ARGS__, (const char *)NULL)

/* One whole turn without crop circles: draw, place, follower-or-pass. */
static inline void h_turn(tafel_state *s, const char *tile, int x, int y,
                          int rot, const char *follower) {
    char draw[32], place[48];
    snprintf(draw, sizeof draw, "draw %s", tile);
    snprintf(place, sizeof place, "place %d %d %d", x, y, rot);
    play(s, draw, place, follower ? follower : "pass");
}

/* An action text that must be refused with status `code`, with a message,
** leaving the state byte for byte as it was. */
static inline void h_refused(tafel_state *s, const char *text, int code) {
    tafel_state *before = tafel_state_clone(s);
    assert_non_null(before);
    tafel_error err = {0};
    err.message[0] = 0;
    int rc = tafel_state_apply_text(s, text, &err);
    if (rc != code)
        fail_msg("'%s': expected status %s, got %s (%s)", text ? text : "(null)",
                 tafel_status_string(code), tafel_status_string(rc), err.message);
    assert_int_equal(err.code, code);
    if (err.message[0] == 0) fail_msg("'%s': refused without a message", text);
    if (!tafel_state_equal(before, s))
        fail_msg("'%s': a refused action changed the state", text);
    tafel_state_free(before);
}

/* The view of seat (-1: spectator) as parsed JSON; cJSON_Delete it. */
static inline cJSON *h_view(const tafel_state *s, int seat) {
    char *text = tafel_state_view_json(s, seat);
    assert_non_null(text);
    cJSON *v = cJSON_Parse(text);
    if (!v) fail_msg("view is not JSON: %s", text);
    free(text);
    return v;
}

static inline int h_json_int(const cJSON *obj, const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(it)) fail_msg("view: \"%s\" is not a number", key);
    return it->valueint;
}

static inline int h_json_array_int(const cJSON *obj, const char *key, int i) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsArray(arr)) fail_msg("view: \"%s\" is not an array", key);
    const cJSON *it = cJSON_GetArrayItem(arr, i);
    if (!cJSON_IsNumber(it)) fail_msg("view: \"%s\"[%d] is not a number", key, i);
    return it->valueint;
}

static inline int h_json_array_size(const cJSON *obj, const char *key) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsArray(arr)) fail_msg("view: \"%s\" is not an array", key);
    return cJSON_GetArraySize(arr);
}

static inline const char *h_json_string(const cJSON *obj, const char *key) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* One integer field of the spectator view ("pile_size", "active"). */
static inline int h_view_int(const tafel_state *s, const char *key) {
    cJSON *v = h_view(s, -1);
    int n = h_json_int(v, key);
    cJSON_Delete(v);
    return n;
}

/* Followers in one seat's supply, from the view. */
static inline int h_supply(const tafel_state *s, int seat) {
    cJSON *v = h_view(s, -1);
    int n = h_json_array_int(v, "supply", seat);
    cJSON_Delete(v);
    return n;
}

/* The phase string of the view, copied into a static-free buffer. */
static inline void h_phase(const tafel_state *s, char *out, size_t size) {
    cJSON *v = h_view(s, -1);
    const char *p = h_json_string(v, "phase");
    snprintf(out, size, "%s", p ? p : "(none)");
    cJSON_Delete(v);
}

/* Scores of up to five seats as integers, for assert_int_equal. */
typedef struct h_points {
    int p[TAFEL_MAX_PLAYERS];
} h_points;

static inline h_points h_points_of(void (*get)(const tafel_state *, double *),
                                   const tafel_state *s) {
    double d[TAFEL_MAX_PLAYERS] = {0};
    get(s, d);
    h_points r = {{0}};
    for (int i = 0; i < TAFEL_MAX_PLAYERS; i++) r.p[i] = (int)d[i];
    return r;
}

/* Scores so far, and the scores if the game ended now. */
#define h_scores(s) h_points_of(tafel_state_scores, (s))
#define h_projected(s) h_points_of(tafel_state_projected, (s))

/* Seat's points in one category of the breakdown ("farm"); 0 if absent. */
static inline int h_category(const tafel_state *s, int seat, const char *name) {
    const char *names[16];
    double values[16];
    int n = tafel_state_score_breakdown(s, seat, names, values, 16);
    for (int i = 0; i < n && i < 16; i++)
        if (strcmp(names[i], name) == 0) return (int)values[i];
    return 0;
}

/* 1 when `text` reads as a legal action now. */
static inline int h_legal_text(const tafel_state *s, const char *text) {
    tafel_action a;
    return tafel_action_from_text(s, text, &a, NULL) == TAFEL_OK &&
           tafel_state_is_legal(s, a);
}

/* The legal actions of s in a malloc'd array (free it); *n their number. */
static inline tafel_action *h_legal(const tafel_state *s, int *n) {
    tafel_action probe[1];
    int count = tafel_state_legal_actions(s, probe, 1);
    assert_true(count >= 0);
    tafel_action *a = malloc(sizeof *a * (size_t)(count + 1));
    assert_non_null(a);
    int again = tafel_state_legal_actions(s, a, count);
    assert_int_equal(again, count);
    *n = count;
    return a;
}

/* One random action in s: a chance outcome sampled, or a uniformly random
** legal action of the seat to move (the random walks of the tests). */
static inline tafel_action h_random_action(const tafel_state *s, uint64_t *rng) {
    tafel_action a;
    if (tafel_state_current(s) == TAFEL_CHANCE) {
        assert_int_equal(tafel_state_sample_chance(s, rng, &a), TAFEL_OK);
        return a;
    }
    int n;
    tafel_action *legal = h_legal(s, &n);
    assert_true(n > 0);
    a = legal[tafel_rng_below(rng, (uint32_t)n)];
    free(legal);
    return a;
}

/* The canonical text of an action, failing on an action with no text. */
static inline void h_text(const tafel_state *s, tafel_action a, char *buf,
                          size_t size) {
    int n = tafel_action_to_text(s, a, buf, size);
    if (n <= 0 || (size_t)n >= size) fail_msg("action %d has no text (%d)", (int)a, n);
}

/* Apply a script: action texts separated by ';', each optionally prefixed
** by who must be to move ("1 play GA G": seat 1; "c deal 0 Y1": chance),
** so a script that gets out of step with the turn order fails at once. */
static inline void h_script(tafel_state *s, const char *script) {
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", script);
    char *save = NULL;
    for (char *item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        while (*item == ' ' || *item == '\n') item++;
        size_t len = strlen(item);
        while (len && (item[len - 1] == ' ' || item[len - 1] == '\n')) item[--len] = 0;
        if (!len) continue;
        const char *text = item;
        int who = -99;
        if (isdigit((unsigned char)item[0]) && item[1] == ' ') {
            who = item[0] - '0';
            text = item + 2;
        } else if (item[0] == 'c' && item[1] == ' ') {
            who = TAFEL_CHANCE;
            text = item + 2;
        }
        int cur = tafel_state_current(s);
        if (who != -99 && cur != who)
            fail_msg("'%s' (move %d): expected %d to move, but it is %d", item,
                     tafel_state_move_number(s), who, cur);
        tafel_error err = {0};
        int rc = tafel_state_apply_text(s, text, &err);
        if (rc != TAFEL_OK)
            fail_msg("'%s' (move %d) failed: %s (%s)", item, tafel_state_move_number(s),
                     tafel_status_string(rc), err.message);
    }
}

#endif
