/*
** botbudget.c -- the caps on what a bot seat's spec may ask for.
**
** A spec asks for its budget by its options (docs/bots.md): a search bot's
** iters (iterations a move), ms (milliseconds a move) and depth (decisions
** in a rollout).  At a people's server each has a cap: iters
** --max-bot-iters, ms --bot-ms (which cuts every search anyway), and depth
** the default 16 -- a rollout to the end (-1) cost 7 to 26 times as much
** (measured with mcts:iters=10000 in Cardcassonne and Carcassonne), which
** would make the iteration cap meaningless.  greedy's depth (a lookahead of
** at most 6 of its own decisions) is not capped: --bot-ms bounds it.  The
** specs are checked when asked for (tables.c) and lowered to the caps when
** a table stored by a server with higher caps is loaded.  Apart from
** botpool.c, whose threads the fuzz target does without.
*/
#include "bots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOT_ROLLOUT_DEPTH_CAP 16

static int cap_iters, cap_ms; /* botbudget_set_caps; 0: none */

void botbudget_set_caps(int bot_iters, int bot_ms) {
    cap_iters = bot_iters;
    cap_ms = bot_ms;
}

/* The cap on option key of a spec of kind (both not 0-terminated), or -1
** for none; *unit and *source say what it counts and where it comes from. */
static long cap_of(const char *kind, size_t kindlen, const char *key, size_t keylen,
                   const char **unit, const char **source) {
    if (keylen == 5 && !strncmp(key, "iters", 5) && cap_iters > 0) {
        *unit = "iterations a move";
        *source = "--max-bot-iters";
        return cap_iters;
    }
    if (keylen == 2 && !strncmp(key, "ms", 2) && cap_ms > 0) {
        *unit = "ms a move";
        *source = "--bot-ms";
        return cap_ms;
    }
    if (keylen == 5 && !strncmp(key, "depth", 5) && !(kindlen == 6 && !strncmp(kind, "greedy", 6))) {
        *unit = "decisions a rollout";
        *source = "a deeper rollout costs up to 25 times as much";
        return BOT_ROLLOUT_DEPTH_CAP;
    }
    return -1;
}

/* Walks spec's options: the first over its cap makes it -1 with why (when
** why is given); each is written into out lowered to its cap (when out is
** given).  An external bot's spec has no options to cap. */
static int budget_walk(const char *spec, char *out, size_t size, char *why, size_t whysize) {
    size_t kindlen = strcspn(spec, ":");
    if (!strncmp(spec, "ext:", 4)) kindlen = strlen(spec);
    size_t used = out ? (size_t)snprintf(out, size, "%.*s", (int)kindlen, spec) : 0;
    const char *p = spec + kindlen;
    while (*p == ':' || *p == ',') {
        char sep = *p++;
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        size_t keylen = eq ? (size_t)(eq - p) : len;
        long value = eq ? strtol(eq + 1, NULL, 10) : 0;
        const char *unit = "", *source = "";
        long cap = eq ? cap_of(spec, kindlen, p, keylen, &unit, &source) : -1;
        int over = cap >= 0 && (value > cap || value < 0);
        if (over && why) {
            snprintf(why, whysize, "%.*s: %.*s=%ld is over this server's cap of %ld %s (%s)",
                     (int)kindlen, spec, (int)keylen, p, value, cap, unit, source);
            return -1;
        }
        if (out && used < size)
            used += (size_t)(over ? snprintf(out + used, size - used, "%c%.*s=%ld", sep,
                                             (int)keylen, p, cap)
                                  : snprintf(out + used, size - used, "%c%.*s", sep, (int)len, p));
        p += len;
    }
    return 0;
}

int botbudget_check(const char *spec, char *why, size_t size) {
    return budget_walk(spec, NULL, 0, why, size);
}

void botbudget_clamp(const char *spec, char *out, size_t size) {
    budget_walk(spec, out, size, NULL, 0);
}
