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

typedef struct net_evaluator {
    tafel_net *net;
    int players, space, kind;
    size_t size;
    float *obs, *values, *logits;
    uint8_t *masks; /* the legal indices of each leaf: the logits computed */
} net_evaluator;

void tf_net_evaluator_free(void *ctx) {
    net_evaluator *e = ctx;
    if (!e) return;
    free(e->obs);
    free(e->values);
    free(e->logits);
    free(e->masks);
    free(e);
}

/* priors = the softmax of logits over the indices mask allows, 0 elsewhere. */
static void legal_softmax(const float *logits, const uint8_t *mask, int space, float *priors) {
    float top = -HUGE_VALF;
    double sum = 0;
    for (int k = 0; k < space; k++)
        if (mask[k] && logits[k] > top) top = logits[k];
    for (int k = 0; k < space; k++) sum += priors[k] = mask[k] ? expf(logits[k] - top) : 0;
    for (int k = 0; k < space && sum > 0; k++) priors[k] = (float)(priors[k] / sum);
}

static int evaluate(void *ctx, const tafel_state *const *leaves, int n, float *values,
                    float *priors, tafel_error *err) {
    net_evaluator *e = ctx;
    int seats[TAFEL_EVALUATOR_MAX_BATCH];
    for (int i = 0; i < n; i++) {
        seats[i] = tafel_state_current(leaves[i]);
        int rc = e->kind == TAFEL_OBSERVATION
                     ? tafel_state_observation_tensor(leaves[i], seats[i], e->obs + i * e->size,
                                                      e->size, err)
                     : tafel_state_information_state_tensor(leaves[i], seats[i],
                                                            e->obs + i * e->size, e->size, err);
        if (rc) return rc;
    }
    size_t space = (size_t)e->space;
    for (int i = 0; priors && i < n; i++)
        tafel_state_legal_actions_mask(leaves[i], e->masks + i * space, space);
    int rc = priors ? tf_net_forward_masked(e->net, e->obs, n, e->values, e->logits, e->masks, err)
                    : tafel_net_forward(e->net, e->obs, n, e->values, NULL, err);
    if (rc) return rc;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < e->players; j++)
            values[i * e->players + (seats[i] + j) % e->players] = e->values[i * e->players + j];
        if (priors)
            legal_softmax(e->logits + i * space, e->masks + i * space, e->space,
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
    e->masks = malloc((size_t)batch * (size_t)e->space);
    if (!e->obs || !e->values || !e->masks || (policy && !e->logits)) {
        tf_net_evaluator_free(e);
        return tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    *ev = (tafel_evaluator){evaluate, e, batch, policy};
    *ctx = e;
    return TAFEL_OK;
}
