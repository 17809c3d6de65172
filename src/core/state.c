/*
** state.c -- the public state calls, dispatched to the state's module.
**
** A state is a tf_state_header followed by the module's data.  The header
** names the module by its registry index, so every call finds the module
** from the state alone, and a state copied with memcpy is complete.  The
** core keeps the header's move counter and checks arguments; the rules are
** the module's.
*/
#include "module.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int tf_game_module(const tafel_game *g, const tf_options **opt);

struct tafel_state {
    tf_state_header h;
};

/* Every call goes through here: no bounds check (tafel_state_check
** validates a state that came from outside). */
static const tf_module *module_of(const tafel_state *s) {
    return tf_games[s->h.module];
}

static void *data_of(tafel_state *s) { return (char *)s + sizeof(tf_state_header); }
static const void *cdata_of(const tafel_state *s) {
    return (const char *)s + sizeof(tf_state_header);
}

void *tf_state_data(tafel_state *s) { return data_of(s); }

TAFEL_API tafel_state *tafel_state_init(const tafel_game *g, void *memory) {
    const tf_options *opt;
    int index = tf_game_module(g, &opt);
    const tf_module *m = tf_registry_get(index);
    size_t size = tafel_game_state_size(g);
    tafel_state *s = memory;
    memset(s, 0, size);
    s->h.magic = TF_STATE_MAGIC;
    s->h.module = (uint16_t)index;
    s->h.players = (uint16_t)opt->value[0];
    s->h.size = (uint32_t)size;
    m->init(data_of(s), opt);
    return s;
}

TAFEL_API tafel_state *tafel_state_new(const tafel_game *g) {
    void *p = aligned_alloc(8, tafel_game_state_size(g));
    return p ? tafel_state_init(g, p) : NULL;
}

TAFEL_API tafel_state *tafel_state_clone(const tafel_state *s) {
    tafel_state *c = aligned_alloc(8, s->h.size);
    if (c) memcpy(c, s, s->h.size);
    return c;
}

TAFEL_API void tafel_state_copy(tafel_state *dst, const tafel_state *src) {
    memcpy(dst, src, src->h.size);
}

TAFEL_API void tafel_state_free(tafel_state *s) { free(s); }

TAFEL_API size_t tafel_state_size(const tafel_state *s) { return s->h.size; }

TAFEL_API int tafel_state_equal(const tafel_state *a, const tafel_state *b) {
    return a->h.size == b->h.size && memcmp(a, b, a->h.size) == 0;
}

TAFEL_API int tafel_state_players(const tafel_state *s) { return s->h.players; }

TAFEL_API int tafel_state_current(const tafel_state *s) {
    const tf_module *m = module_of(s);
    if (m->current_byte) return ((const int8_t *)cdata_of(s))[m->current_byte];
    return m->current(cdata_of(s));
}

TAFEL_API int tafel_state_move_number(const tafel_state *s) { return (int)s->h.moves; }

TAFEL_API int tafel_state_legal_actions(const tafel_state *s, tafel_action *out,
                                        int cap) {
    return module_of(s)->legal(cdata_of(s), out, cap);
}

TAFEL_API int tafel_state_is_legal(const tafel_state *s, tafel_action a) {
    /* Applying to a scratch copy is the one definition of legality. */
    _Alignas(max_align_t) char scratch[1 << 16];
    if (s->h.size <= sizeof scratch) {
        tafel_state *c = (tafel_state *)(void *)scratch;
        memcpy(c, s, s->h.size);
        return tafel_state_apply(c, a, NULL) == TAFEL_OK;
    }
    tafel_state *c = tafel_state_clone(s);
    int ok = c && tafel_state_apply(c, a, NULL) == TAFEL_OK;
    free(c);
    return ok;
}

TAFEL_API int tafel_state_chance_outcomes(const tafel_state *s, tafel_action *out,
                                          double *prob, int cap) {
    const tf_module *m = module_of(s);
    if (m->current(cdata_of(s)) != TAFEL_CHANCE) return 0;
    return m->chance(cdata_of(s), out, prob, cap);
}

/* Sampling from the listed outcomes and their probabilities, for a module
** without a sampler of its own: out of line, so that the hot path below
** keeps no 12 KB frame. */
static __attribute__((noinline)) int sample_from_list(const tafel_state *s, uint64_t *rng,
                                                      tafel_action *out) {
    const tf_module *m = module_of(s);
    if (m->current(cdata_of(s)) != TAFEL_CHANCE) return TAFEL_EINVAL;
    tafel_action actions[1024];
    double prob[1024];
    int n = m->chance(cdata_of(s), actions, prob, 1024);
    if (n <= 0 || n > 1024) return TAFEL_ESTATE;
    double r = tafel_rng_unit(rng), acc = 0;
    for (int i = 0; i < n; i++) {
        acc += prob[i];
        if (r < acc) {
            *out = actions[i];
            return TAFEL_OK;
        }
    }
    *out = actions[n - 1];
    return TAFEL_OK;
}

TAFEL_API int tafel_state_sample_chance(const tafel_state *s, uint64_t *rng,
                                        tafel_action *out) {
    const tf_module *m = module_of(s);
    if (!m->sample) return sample_from_list(s, rng, out);
    tafel_action a = m->sample(cdata_of(s), rng); /* the hot path of every simulation */
    if (a < 0) return TAFEL_EINVAL;
    *out = a;
    return TAFEL_OK;
}

TAFEL_API int tafel_state_apply(tafel_state *s, tafel_action a, tafel_error *err) {
    int rc = module_of(s)->apply(data_of(s), a, err); /* refuses at the end */
    if (rc == TAFEL_OK) s->h.moves++;
    return rc;
}

TAFEL_API int tafel_state_play_random(tafel_state *s, uint64_t *rng, tafel_action *scratch,
                                     int cap, tafel_action *played) {
    const tf_module *m = module_of(s);
    void *data = data_of(s);
    int who = tafel_state_current(s);
    if (who == TAFEL_TERMINAL) return TAFEL_ESTATE;
    if (cap < m->max_actions) return TAFEL_EINVAL;
    tafel_action a;
    if (who != TAFEL_CHANCE) {
        int n = m->legal(data, scratch, cap);
        if (n <= 0) return TAFEL_ESTATE;
        a = scratch[tafel_rng_below(rng, (uint32_t)n)];
    } else {
        int rc = tafel_state_sample_chance(s, rng, &a);
        if (rc) return rc;
    }
    if (m->play) m->play(data, a); /* the module's own choice: no check again */
    else if (m->apply(data, a, NULL)) return TAFEL_ESTATE;
    s->h.moves++;
    if (played) *played = a;
    return TAFEL_OK;
}

TAFEL_API int tafel_action_from_text(const tafel_state *s, const char *text,
                                     tafel_action *out, tafel_error *err) {
    if (!text) return tf_error(err, TAFEL_EPARSE, "no action text");
    return module_of(s)->from_text(cdata_of(s), text, out, err);
}

TAFEL_API int tafel_action_to_text(const tafel_state *s, tafel_action a, char *buf,
                                   size_t size) {
    return module_of(s)->to_text(cdata_of(s), a, buf, size);
}

TAFEL_API int tafel_action_view_text(const tafel_state *s, int seat, tafel_action a,
                                     char *buf, size_t size) {
    const tf_module *m = module_of(s);
    if (seat < -1 || seat >= s->h.players) {
        if (size) buf[0] = 0;
        return -1;
    }
    if (m->view_text) return m->view_text(cdata_of(s), seat, a, buf, size);
    return m->to_text(cdata_of(s), a, buf, size);
}

TAFEL_API int tafel_state_apply_text(tafel_state *s, const char *text,
                                     tafel_error *err) {
    tafel_action a;
    int rc = tafel_action_from_text(s, text, &a, err);
    return rc ? rc : tafel_state_apply(s, a, err);
}

TAFEL_API void tafel_state_scores(const tafel_state *s, double *out) {
    module_of(s)->scores(cdata_of(s), out);
}

TAFEL_API void tafel_state_projected(const tafel_state *s, double *out) {
    module_of(s)->projected(cdata_of(s), out);
}

TAFEL_API void tafel_state_heuristic(const tafel_state *s, double *out) {
    module_of(s)->heuristic(cdata_of(s), out);
}

TAFEL_API int tafel_state_winners(const tafel_state *s, int *out) {
    if (tafel_state_current(s) != TAFEL_TERMINAL) return 0;
    const tf_module *m = module_of(s);
    if (m->winners) return m->winners(cdata_of(s), out);
    double scores[TAFEL_MAX_PLAYERS];
    m->scores(cdata_of(s), scores);
    int n = s->h.players, count = 0;
    double best = scores[0];
    for (int i = 1; i < n; i++)
        if (scores[i] > best) best = scores[i];
    for (int i = 0; i < n; i++)
        if (scores[i] == best) out[count++] = i;
    return count;
}

TAFEL_API int tafel_state_rewards(const tafel_state *s, float *out) {
    int n = s->h.players, winners[TAFEL_MAX_PLAYERS], w = tafel_state_winners(s, winners);
    for (int i = 0; i < n; i++) out[i] = w > 0 && w < n ? -1.0f : 0.0f;
    if (w < n) /* every seat winning is a draw: 0 each */
        for (int k = 0; k < w; k++) out[winners[k]] = 1.0f;
    return n;
}

TAFEL_API int tafel_state_score_breakdown(const tafel_state *s, int seat,
                                          const char **names, double *values,
                                          int cap) {
    if (seat < 0 || seat >= s->h.players) return 0;
    return module_of(s)->breakdown(cdata_of(s), seat, names, values, cap);
}

TAFEL_API char *tafel_state_view_json(const tafel_state *s, int seat) {
    if (seat < -1 || seat >= s->h.players) return NULL;
    tf_buf b;
    tf_buf_init(&b);
    if (module_of(s)->view_json(cdata_of(s), seat, &b) != TAFEL_OK) {
        tf_buf_free(&b);
        return NULL;
    }
    return tf_buf_take(&b);
}

TAFEL_API int tafel_state_resample(tafel_state *s, int seat, uint64_t *rng) {
    if (seat < 0 || seat >= s->h.players) return TAFEL_EINVAL;
    return module_of(s)->resample(data_of(s), seat, rng);
}

/* The seat's view after a, from a copy of s resampled for the seat with
** rng (NULL: s as it is); NULL when a is illegal there or memory ran out. */
static char *view_after(const tafel_state *s, int seat, tafel_action a, uint64_t *rng) {
    tafel_state *c = tafel_state_clone(s);
    char *view = NULL;
    if (c && (!rng || tafel_state_resample(c, seat, rng) == TAFEL_OK) &&
        tafel_state_apply(c, a, NULL) == TAFEL_OK)
        view = tafel_state_view_json(c, seat);
    free(c);
    return view;
}

TAFEL_API int tafel_state_action_reveals(const tafel_state *s, tafel_action a) {
    int seat = module_of(s)->current(cdata_of(s));
    if (seat < 0) return 1;
    if (!tafel_state_is_legal(s, a)) return 1;
    if (!module_of(s)->view_text) return 0; /* no hidden information */
    char *seen = view_after(s, seat, a, NULL);
    int reveals = !seen;
    uint64_t rng = tafel_rng_seed(0x7265766561ULL ^ (uint64_t)a);
    for (int k = 0; k < 8 && !reveals; k++) {
        char *other = view_after(s, seat, a, &rng);
        reveals = !other || strcmp(seen, other) != 0;
        free(other);
    }
    free(seen);
    return reveals;
}

TAFEL_API int tafel_state_action_request(const tafel_state *s, tafel_action a) {
    const tf_module *m = module_of(s);
    if (!m->request || m->current(cdata_of(s)) < 0 || !tafel_state_is_legal(s, a)) return 0;
    return m->request(cdata_of(s), a);
}

/* The account of a game without its own: who did what, and the points. */
static int describe_generic(const tafel_state *s, tafel_action a, tf_events *ev) {
    char text[TAFEL_ACTION_TEXT_MAX];
    int actor = tafel_state_current(s);
    tafel_action_view_text(s, ev->seat, a, text, sizeof text);
    tafel_state *after = tafel_state_clone(s);
    if (!after) return TAFEL_ENOMEM;
    tafel_state_apply(after, a, NULL);
    double before_scores[TAFEL_MAX_PLAYERS], after_scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(s, before_scores);
    tafel_state_scores(after, after_scores);
    free(after);
    tf_event_begin(ev, "action");
    tf_event_int(ev, "seat", actor >= 0 ? actor : -1); /* -1: chance */
    tf_event_str(ev, "text", text);
    int points[TAFEL_MAX_PLAYERS], changed = 0;
    for (int p = 0; p < ev->players; p++) {
        points[p] = (int)(after_scores[p] - before_scores[p]);
        changed |= points[p] != 0;
    }
    if (changed) {
        tf_event_begin(ev, "score");
        tf_event_points(ev, points);
    }
    return TAFEL_OK;
}

TAFEL_API int tafel_state_describe(const tafel_state *s, tafel_action a, int seat,
                                   char **json_out, tafel_error *err) {
    if (!json_out) return tf_error(err, TAFEL_EINVAL, "no place for the account");
    *json_out = NULL;
    if (seat < -1 || seat >= s->h.players)
        return tf_error(err, TAFEL_EINVAL, "seat %d: this game has seats 0..%d, or -1",
                        seat, s->h.players - 1);
    int rc;
    if (!tafel_state_is_legal(s, a)) { /* apply on a copy says why */
        tafel_state *probe = tafel_state_clone(s);
        if (!probe) return tf_error(err, TAFEL_ENOMEM, "out of memory");
        rc = tafel_state_apply(probe, a, err);
        free(probe);
        return rc != TAFEL_OK ? rc : tf_error(err, TAFEL_EILLEGAL, "action %d is not legal", (int)a);
    }
    tf_events ev;
    tf_events_init(&ev, s->h.players, seat);
    const tf_module *m = module_of(s);
    rc = m->describe ? m->describe(cdata_of(s), a, &ev) : describe_generic(s, a, &ev);
    if (rc != TAFEL_OK) {
        tf_events_free(&ev);
        return tf_error(err, rc, "cannot describe the action");
    }
    *json_out = tf_events_take(&ev);
    return *json_out ? TAFEL_OK : tf_error(err, TAFEL_ENOMEM, "out of memory");
}

TAFEL_API char *tafel_state_render(const tafel_state *s, int seat, int flags) {
    if (seat < -1 || seat >= s->h.players) return NULL;
    tf_buf b;
    tf_buf_init(&b);
    if (module_of(s)->render(cdata_of(s), seat, flags, &b) != TAFEL_OK) {
        tf_buf_free(&b);
        return NULL;
    }
    return tf_buf_take(&b);
}

TAFEL_API int tafel_state_check(const tafel_state *s, tafel_error *err) {
    if (s->h.magic != TF_STATE_MAGIC || !tf_registry_get(s->h.module))
        return tf_error(err, TAFEL_ESTATE, "not a tafel state");
    return module_of(s)->check(cdata_of(s), err);
}
