/*
** registry.c -- the list of bots, and the public tafel_bot_ calls.
**
** A spec is  name [ ":" key "=" value { "," key "=" value } ]  with integer
** values, checked against the kind's option table before the bot is made.
** A bot's name is its canonical spec: the kind's name plus the options that
** differ from their defaults, so "greedy:depth=3" is named "greedy".
** Adding a bot is one line in the table below.
**
** Each bot holds its bot_control (bot.h): tafel_bot_stop sets its flag from
** any thread; a choice sets the deadline of the time cap when it starts and
** clears the flag when it ends, so one stop ends one search.
*/
#include "bot.h"
#include "../nn/nn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bot_kind *const kinds[] = {
    &bot_random_kind,
    &bot_greedy_kind,
    &bot_mcts_kind,
    &bot_easy_kind,
    &bot_medium_kind,
    &bot_hard_kind,
    &bot_expert_kind,
};

#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

struct tafel_bot {
    const bot_kind *kind;
    void *impl;
    size_t state_size;
    const tafel_game *game;
    void *net_evaluator; /* tafel_bot_set_net's, owned */
    char name[128];
    bot_control control;
};

static void known_bots(char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < NKINDS && used < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "",
                         kinds[i]->name);
        if (n < 0) break;
        used += (size_t)n;
    }
}

static void known_options(const bot_kind *k, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    if (k->noptions == 0) snprintf(out, size, "it has none");
    for (int i = 0; i < k->noptions && used < size; i++) {
        const bot_option *o = &k->options[i];
        int n = snprintf(out + used, size - used, "%s%s=%d..%d", i ? ", " : "",
                         o->name, o->min, o->max);
        if (n < 0) break;
        used += (size_t)n;
    }
}

static const bot_kind *find_kind(const char *name, size_t len) {
    for (int i = 0; i < NKINDS; i++)
        if (strlen(kinds[i]->name) == len && !strncmp(kinds[i]->name, name, len))
            return kinds[i];
    return NULL;
}

/* Read "key=value" (len bytes at item) into values[]. */
static int parse_option(const bot_kind *k, const char *item, size_t len,
                        int *values, int *given, tafel_error *err) {
    const char *eq = memchr(item, '=', len);
    size_t keylen = eq ? (size_t)(eq - item) : len;
    int i = 0;
    while (i < k->noptions &&
           (strlen(k->options[i].name) != keylen ||
            strncmp(k->options[i].name, item, keylen)))
        i++;
    char known[160];
    known_options(k, known, sizeof known);
    if (i == k->noptions)
        return tf_error(err, TAFEL_EBOT, "bot %s has no option '%.*s' (%s)",
                         k->name, (int)keylen, item, known);
    const bot_option *o = &k->options[i];
    if (given[i]++)
        return tf_error(err, TAFEL_EBOT, "bot %s: option '%s' given twice",
                         k->name, o->name);
    char value[32] = "";
    if (eq && len - keylen - 1 < sizeof value)
        memcpy(value, eq + 1, len - keylen - 1), value[len - keylen - 1] = 0;
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (!eq || !value[0] || *end || errno || v < o->min || v > o->max) {
        char given_text[TF_QUOTE + 1];
        snprintf(given_text, sizeof given_text, "%.*s", (int)len, item);
        return tf_error(err, TAFEL_EBOT, "bot %s: %s must be %d..%d, not '%s'", k->name,
                        o->name, o->min, o->max, TF_Q(given_text));
    }
    values[i] = (int)v;
    return TAFEL_OK;
}

/* Parse a spec into its kind and option values. */
static int parse_spec(const char *spec, const bot_kind **kind, int *values,
                      tafel_error *err) {
    size_t namelen = strcspn(spec, ":");
    const bot_kind *k = find_kind(spec, namelen);
    if (!k) {
        char known[160];
        known_bots(known, sizeof known);
        return tf_error(err, TAFEL_EBOT, "unknown bot '%.*s' (bots: %s)",
                         (int)namelen, spec, known);
    }
    int given[BOT_MAX_OPTIONS] = {0};
    for (int i = 0; i < k->noptions; i++) values[i] = k->options[i].def;
    const char *p = spec + namelen;
    while (*p == ':' || *p == ',') {
        p++;
        size_t len = strcspn(p, ",");
        int rc = parse_option(k, p, len, values, given, err);
        if (rc) return rc;
        p += len;
    }
    *kind = k;
    return TAFEL_OK;
}

static void canonical_name(const bot_kind *k, const int *values, char *out,
                           size_t size) {
    size_t used = (size_t)snprintf(out, size, "%s", k->name);
    char sep = ':';
    for (int i = 0; i < k->noptions && used < size; i++) {
        if (values[i] == k->options[i].def) continue;
        int n = snprintf(out + used, size - used, "%c%s=%d", sep,
                         k->options[i].name, values[i]);
        if (n < 0) break;
        used += (size_t)n;
        sep = ',';
    }
}

TAFEL_API int tafel_bot_new(const char *spec, const tafel_game *game,
                            uint64_t seed, tafel_bot **out, tafel_error *err) {
    if (out) *out = NULL;
    if (!spec || !game || !out)
        return tf_error(err, TAFEL_EINVAL, "bot: no spec or no game");
    const bot_kind *k = NULL;
    int values[BOT_MAX_OPTIONS];
    int rc = parse_spec(spec, &k, values, err);
    if (rc) return rc;
    tafel_bot *bot = calloc(1, sizeof *bot);
    if (!bot) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    atomic_init(&bot->control.stop, 0);
    rc = k->new_bot(game, values, seed, &bot->control, &bot->impl, err);
    if (rc) {
        free(bot);
        return rc;
    }
    bot->kind = k;
    bot->game = game;
    bot->state_size = tafel_game_state_size(game);
    canonical_name(k, values, bot->name, sizeof bot->name);
    *out = bot;
    return TAFEL_OK;
}

TAFEL_API void tafel_bot_free(tafel_bot *bot) {
    if (!bot) return;
    bot->kind->free_bot(bot->impl);
    tf_net_evaluator_free(bot->net_evaluator);
    free(bot);
}

TAFEL_API const char *tafel_bot_name(const tafel_bot *bot) { return bot->name; }

/* Whether the bot may decide in state: a seat's turn in the bot's game. */
static int check_turn(const tafel_bot *bot, const tafel_state *state,
                      tafel_error *err) {
    if (tafel_state_size(state) != bot->state_size)
        return tf_error(err, TAFEL_EINVAL,
                         "bot %s: the state is not of the bot's game", bot->name);
    if (tafel_state_current(state) < 0)
        return tf_error(err, TAFEL_EINVAL,
                         "bot %s: no seat is to move (chance or game over)",
                         bot->name);
    return TAFEL_OK;
}

/* A choice starts: the time cap's deadline from now. */
static void start_choice(tafel_bot *bot) {
    bot->control.deadline = bot->control.cap_ms ? bot_now_ms() + bot->control.cap_ms : 0;
}

/* A choice ended: a stop that came for it is used up. */
static void end_choice(tafel_bot *bot) {
    atomic_store_explicit(&bot->control.stop, 0, memory_order_relaxed);
    bot->control.deadline = 0;
}

TAFEL_API int tafel_bot_choose(tafel_bot *bot, const tafel_state *state,
                               tafel_action *out, tafel_error *err) {
    if (!bot || !state || !out)
        return tf_error(err, TAFEL_EINVAL, "bot: no bot, state or output");
    int rc = check_turn(bot, state, err);
    if (rc) return rc;
    start_choice(bot);
    rc = bot->kind->choose(bot->impl, state, out, err);
    end_choice(bot);
    return rc;
}

TAFEL_API void tafel_bot_stop(tafel_bot *bot) {
    if (bot) atomic_store_explicit(&bot->control.stop, 1, memory_order_relaxed);
}

TAFEL_API int tafel_bot_set_time_cap(tafel_bot *bot, int ms, tafel_error *err) {
    if (!bot) return tf_error(err, TAFEL_EINVAL, "bot: no bot");
    if (ms < 0)
        return tf_error(err, TAFEL_EINVAL, "bot %s: a time cap of %d ms (give 0 for none)",
                        bot->name, ms);
    bot->control.cap_ms = ms;
    return TAFEL_OK;
}

TAFEL_API int tafel_bot_analyse(tafel_bot *bot, const tafel_state *state,
                                tafel_bot_move *out, int cap, int *count,
                                tafel_error *err) {
    if (count) *count = 0;
    if (!bot || !state || !out || cap < 1 || !count)
        return tf_error(err, TAFEL_EINVAL, "bot: no bot, state or output");
    int rc = check_turn(bot, state, err);
    if (rc) return rc;
    start_choice(bot);
    if (bot->kind->analyse) {
        rc = bot->kind->analyse(bot->impl, state, out, cap, count, err);
    } else {
        out[0] = (tafel_bot_move){0, 1, -1};
        rc = bot->kind->choose(bot->impl, state, &out[0].action, err);
        *count = rc ? 0 : 1;
    }
    end_choice(bot);
    return rc;
}

TAFEL_API int tafel_bot_set_evaluator(tafel_bot *bot, const tafel_evaluator *evaluator,
                                      tafel_error *err) {
    if (!bot) return tf_error(err, TAFEL_EINVAL, "bot: no bot");
    if (!bot->kind->set_evaluator)
        return tf_error(err, TAFEL_EBOT, "bot %s does not search: it takes no evaluator",
                        bot->name);
    if (evaluator && !evaluator->evaluate)
        return tf_error(err, TAFEL_EINVAL, "bot %s: an evaluator without evaluate", bot->name);
    if (evaluator && (evaluator->batch < 1 || evaluator->batch > TAFEL_EVALUATOR_MAX_BATCH))
        return tf_error(err, TAFEL_EINVAL, "bot %s: an evaluator's batch is 1..%d, not %d",
                        bot->name, TAFEL_EVALUATOR_MAX_BATCH, evaluator->batch);
    int rc = bot->kind->set_evaluator(bot->impl, evaluator, err);
    if (!rc) { /* a net's evaluator it used before is no longer needed */
        tf_net_evaluator_free(bot->net_evaluator);
        bot->net_evaluator = NULL;
    }
    return rc;
}

TAFEL_API int tafel_bot_set_net(tafel_bot *bot, tafel_net *net, int batch, tafel_error *err) {
    if (!bot || !net) return tf_error(err, TAFEL_EINVAL, "bot: no bot or no net");
    if (!bot->kind->set_evaluator)
        return tf_error(err, TAFEL_EBOT, "bot %s does not search: it takes no net", bot->name);
    tafel_evaluator ev;
    void *ctx;
    int rc = tf_net_evaluator(net, bot->game, batch, &ev, &ctx, err);
    if (!rc) rc = tafel_bot_set_evaluator(bot, &ev, err);
    if (rc) {
        tf_net_evaluator_free(ctx);
        return rc;
    }
    bot->net_evaluator = ctx;
    return TAFEL_OK;
}

TAFEL_API const char *tafel_bot_info(int i, const char **summary) {
    if (i < 0 || i >= NKINDS) return NULL;
    if (summary) *summary = kinds[i]->summary;
    return kinds[i]->name;
}
