/*
** evaluator.c -- a net as a search's leaf evaluator (tafel_bot_set_net).
**
** Each leaf is judged from its seat to move, as the net was trained: that
** seat's tensor in, each seat's share of the win out, the observer first
** and the others after it in turn order (as the tensors order seats),
** turned back to seat numbers here.  Priors are the softmax of the policy
** logits over the legal indices alone.
*/
#include "nn.h"

#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct net_evaluator {
    tafel_net *net;
    int players, space, kind;
    size_t size;
    float *obs, *values, *logits;
    uint8_t *mask;
    int *legal; /* each leaf's legal indices (space ints a leaf): the logits computed */
} net_evaluator;

void tf_net_evaluator_free(void *ctx) {
    net_evaluator *e = ctx;
    if (!e) return;
    free(e->obs);
    free(e->values);
    free(e->logits);
    free(e->mask);
    free(e->legal);
    free(e);
}

/* The indices mask allows, into list (the mask is mostly zeros: eight
** bytes are skipped at once); how many. */
static int mask_indices(const uint8_t *mask, int space, int *list) {
    int n = 0, k = 0;
    for (; k + 8 <= space; k += 8) {
        uint64_t word;
        memcpy(&word, mask + k, sizeof word);
        if (!word) continue;
        for (int j = k; j < k + 8; j++)
            if (mask[j]) list[n++] = j;
    }
    for (; k < space; k++)
        if (mask[k]) list[n++] = k;
    return n;
}

/* priors at the n indices of list: the softmax of their logits (the search
** reads the legal indices only, and normalises there). */
static void legal_softmax(const float *logits, const int *list, int n, float *priors) {
    float top = -HUGE_VALF;
    double sum = 0;
    for (int j = 0; j < n; j++) top = logits[list[j]] > top ? logits[list[j]] : top;
    for (int j = 0; j < n; j++) sum += priors[list[j]] = expf(logits[list[j]] - top);
    for (int j = 0; j < n && sum > 0; j++) priors[list[j]] = (float)(priors[list[j]] / sum);
}

static int evaluate(void *ctx, const tafel_state *const *leaves, int n, float *values,
                    float *priors, tafel_error *err) {
    net_evaluator *e = ctx;
    int seats[TAFEL_EVALUATOR_MAX_BATCH], nlegal[TAFEL_EVALUATOR_MAX_BATCH];
    size_t space = (size_t)e->space;
    for (int i = 0; i < n; i++) {
        seats[i] = tafel_state_current(leaves[i]);
        int rc = e->kind == TAFEL_OBSERVATION
                     ? tafel_state_observation_tensor(leaves[i], seats[i], e->obs + i * e->size,
                                                      e->size, err)
                     : tafel_state_information_state_tensor(leaves[i], seats[i],
                                                            e->obs + i * e->size, e->size, err);
        if (rc) return rc;
        if (!priors) continue;
        tafel_state_legal_actions_mask(leaves[i], e->mask, space);
        nlegal[i] = mask_indices(e->mask, e->space, e->legal + i * space);
    }
    int rc = priors ? tf_net_forward_some(e->net, e->obs, n, e->values, e->logits, e->legal,
                                          nlegal, space, err)
                    : tafel_net_forward(e->net, e->obs, n, e->values, NULL, err);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < e->players; j++)
            values[i * e->players + (seats[i] + j) % e->players] = e->values[i * e->players + j];
        if (priors)
            legal_softmax(e->logits + i * space, e->legal + i * space, nlegal[i],
                          priors + i * space);
    }
    return TAFEL_OK;
}

int tf_net_evaluator(tafel_net *net, const tafel_game *game, int batch, tafel_evaluator *ev,
                     void **ctx, tafel_error *err) {
    *ctx = NULL;
    if (batch < 1 || batch > TAFEL_EVALUATOR_MAX_BATCH)
        return tf_error(err, TAFEL_EINVAL, "net: a batch is 1..%d, not %d",
                        TAFEL_EVALUATOR_MAX_BATCH, batch);
    int rc = tf_net_check(net, game, err);
    if (rc) return rc;
    net_evaluator *e = calloc(1, sizeof *e);
    if (!e) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    e->net = net;
    e->players = tafel_game_players(game);
    e->space = tafel_game_action_space_size(game);
    e->kind = tafel_net_kind(net);
    e->size = tafel_game_tensor_size(game, e->kind);
    int policy = tafel_net_has_policy(net);
    e->obs = malloc((size_t)batch * e->size * sizeof *e->obs);
    e->values = malloc((size_t)batch * e->players * sizeof *e->values);
    e->logits = policy ? malloc((size_t)batch * e->space * sizeof *e->logits) : NULL;
    e->mask = policy ? malloc((size_t)e->space) : NULL;
    e->legal = policy ? malloc((size_t)batch * (size_t)e->space * sizeof *e->legal) : NULL;
    if (!e->obs || !e->values || (policy && (!e->logits || !e->mask || !e->legal))) {
        tf_net_evaluator_free(e);
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    *ev = (tafel_evaluator){evaluate, e, batch, policy};
    *ctx = e;
    return TAFEL_OK;
}
