/*
** record.c -- fuzz target: bytes as a record's JSON (tafel_record_from_json,
** from memory), then tafel_record_replay.
**
** A record refused comes with a message.  A record read must mean what its
** JSON says: the whole text is one JSON value, no key of it is given twice,
** and no string it uses holds a "\u0000" that would cut it (the text with
** each such escape made "\u0001" must read to the same record).  It writes
** back (tafel_record_to_json) to JSON that reads to the same record and
** writes the same again.  A replay refused comes with a message; a replay
** that succeeds gives a state that passes tafel_state_check, and the record
** of the same game in canonical form (canonical game string and action
** texts, through tafel_record_push) replays to the same state, byte for
** byte.
*/
#include "fuzz.h"

#include <cjson/cJSON.h>

static void same_record(const tafel_record *a, const tafel_record *b, const char *why) {
    if (strcmp(tafel_record_game_string(a), tafel_record_game_string(b)))
        fz_fail("%s: game '%s' became '%s'", why, tafel_record_game_string(a),
                tafel_record_game_string(b));
    if (tafel_record_seed(a) != tafel_record_seed(b))
        fz_fail("%s: seed %llu became %llu", why, (unsigned long long)tafel_record_seed(a),
                (unsigned long long)tafel_record_seed(b));
    for (int seat = 0; seat < TAFEL_MAX_PLAYERS; seat++) {
        const char *x = tafel_record_player(a, seat), *y = tafel_record_player(b, seat);
        if (!x != !y || (x && strcmp(x, y)))
            fz_fail("%s: player %d '%s' became '%s'", why, seat, x ? x : "(none)",
                    y ? y : "(none)");
    }
    int n = tafel_record_action_count(a);
    if (tafel_record_action_count(b) != n)
        fz_fail("%s: %d actions became %d", why, n, tafel_record_action_count(b));
    for (int i = 0; i < n; i++)
        if (strcmp(tafel_record_action(a, i), tafel_record_action(b, i)))
            fz_fail("%s: action %d '%s' became '%s'", why, i, tafel_record_action(a, i),
                    tafel_record_action(b, i));
}

/* Does the record mean what its JSON says?  Issue 13 found each of these
** read: text after the JSON, a key given twice, a string cut at "\u0000". */
static void strict_json(const char *text, const tafel_record *r) {
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    if (!root) fz_fail("a record was read from a text that is not one JSON value");
    static const char *const keys[] = {"game", "players", "seed", "actions"};
    for (int k = 0; k < 4; k++) {
        int times = 0;
        for (const cJSON *a = root->child; a; a = a->next)
            times += a->string && !strcmp(a->string, keys[k]);
        if (times > 1)
            fz_fail("a record was read from JSON that gives \"%s\" %d times", keys[k], times);
    }
    cJSON_Delete(root);

    char *other = malloc(strlen(text) + 1);
    if (!other) fz_fail("out of memory");
    strcpy(other, text);
    int escaped = 0;
    for (char *q = other; *q; q++) {
        if (*q != '\\' || !q[1]) continue;
        if (!strncmp(q + 1, "u0000", 5)) {
            q[5] = '1';
            escaped = 1;
        }
        q++; /* the escaped character: "\\u0000" is no escape of U+0000 */
    }
    if (escaped) {
        tafel_record *r2 = NULL;
        int rc = tafel_record_from_json(other, &r2, NULL);
        if (rc != TAFEL_OK) fz_fail("a record reads only while its \"\\u0000\" cuts a string");
        same_record(r, r2, "a record with \"\\u0000\" (cut strings)");
        tafel_record_free(r2);
    }
    free(other);
}

/* Replays r by hand, writing the canonical record; returns it. */
static tafel_record *canonical_record(const tafel_record *r, const tafel_game *game) {
    tafel_record *c = tafel_record_new(tafel_game_string(game), tafel_record_seed(r));
    tafel_state *s = tafel_state_new(game);
    if (!c || !s) fz_fail("out of memory");
    for (int seat = 0; seat < TAFEL_MAX_PLAYERS; seat++)
        if (tafel_record_set_player(c, seat, tafel_record_player(r, seat)))
            fz_fail("out of memory");
    for (int i = 0; i < tafel_record_action_count(r); i++) {
        tafel_action a;
        tafel_error err = {0};
        if (tafel_action_from_text(s, tafel_record_action(r, i), &a, &err))
            fz_fail("action %d '%s' replayed, but from_text refuses it: %s", i,
                    tafel_record_action(r, i), err.message);
        if (tafel_record_push(c, s, a)) fz_fail("tafel_record_push of action %d failed", i);
        if (tafel_state_apply(s, a, &err))
            fz_fail("action %d '%s' replayed, but apply refuses it: %s", i,
                    tafel_record_action(r, i), err.message);
    }
    tafel_state_free(s);
    return c;
}

static void replay(const tafel_record *r) {
    tafel_game *game = (tafel_game *)(void *)1;
    tafel_state *s = (tafel_state *)(void *)1;
    tafel_error err = {0};
    int rc = tafel_record_replay(r, &game, &s, &err);
    if (rc != TAFEL_OK) {
        if (game || s) fz_fail("a replay failed (%d) but left its outputs set", rc);
        if ((rc != TAFEL_ERECORD && rc != TAFEL_ENOMEM) || !err.message[0])
            fz_fail("a replay failed with status %d, message '%s'", rc, err.message);
        return;
    }
    fz_check(s, "the state a record replays to");
    if (tafel_state_move_number(s) != tafel_record_action_count(r))
        fz_fail("%d actions replayed to move %d", tafel_record_action_count(r),
                tafel_state_move_number(s));

    tafel_record *c = canonical_record(r, game);
    char *json = tafel_record_to_json(c);
    tafel_record *back = NULL;
    tafel_game *game2 = NULL;
    tafel_state *s2 = NULL;
    if (!json || tafel_record_from_json(json, &back, &err))
        fz_fail("the canonical record does not read back: %s", err.message);
    if (tafel_record_replay(back, &game2, &s2, &err))
        fz_fail("the canonical record does not replay: %s", err.message);
    if (!tafel_state_equal(s, s2))
        fz_fail("the canonical record replays to another state");
    tafel_state_free(s2);
    tafel_game_free(game2);
    tafel_record_free(back);
    free(json);
    tafel_record_free(c);
    tafel_state_free(s);
    tafel_game_free(game);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;

    tafel_record *r = (tafel_record *)(void *)text; /* must become NULL on failure */
    tafel_error err = {-1, "untouched"};
    int rc = tafel_record_from_json(text, &r, &err);
    if (rc != TAFEL_OK) {
        if (r) fz_fail("tafel_record_from_json failed (%d) but left *out set", rc);
        if ((rc != TAFEL_ERECORD && rc != TAFEL_ENOMEM) || err.code != rc ||
            !err.message[0] || !strcmp(err.message, "untouched"))
            fz_fail("tafel_record_from_json: status %d, error %d '%s'", rc, err.code,
                    err.message);
        free(text);
        return 0;
    }
    strict_json(text, r);

    char *json = tafel_record_to_json(r);
    tafel_record *back = NULL;
    if (!json) fz_fail("tafel_record_to_json failed");
    if (tafel_record_from_json(json, &back, &err))
        fz_fail("a record's own JSON does not read back: %s", err.message);
    same_record(r, back, "written and read back");
    char *json2 = tafel_record_to_json(back);
    if (!json2 || strcmp(json, json2)) fz_fail("a record's JSON changes when written again");
    free(json2);
    tafel_record_free(back);
    free(json);

    replay(r);
    tafel_record_free(r);
    free(text);
    return 0;
}
