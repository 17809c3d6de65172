/*
** nn.h -- nets as the bots use them (internal): a net made into a leaf
** evaluator (docs/nets.md).
*/
#ifndef TF_NN_H
#define TF_NN_H

#include "tafel.h"

/* A leaf evaluator that runs net on the tensors of each leaf's seat to
** move, batch leaves a call; *ctx (freed with tf_net_evaluator_free) is
** its context, which ev->ctx points to.  net must outlive it. */
int tf_net_evaluator(tafel_net *net, const tafel_game *game, int batch, tafel_evaluator *ev,
                     void **ctx, tafel_error *err);
void tf_net_evaluator_free(void *ctx);

/* TAFEL_OK when net fits game (name, players, tensor, action space), else
** TAFEL_EGAME saying how they differ. */
int tf_net_check(const tafel_net *net, const tafel_game *game, tafel_error *err);

/* tafel_net_forward for n inputs whose policy is wanted only at a few
** indices: input i's are wanted[i * stride + j], j < nwanted[i], and only
** those logits are written (policy + i * the policy's size).  A search asks
** for the priors of the legal actions, a few of a large space (Catan:
** 3,242), and the policy head is most of such a net's work. */
int tf_net_forward_some(tafel_net *net, const float *inputs, int n, float *values,
                        float *policy, const int *wanted, const int *nwanted, size_t stride,
                        tafel_error *err);

/* The weights file built in for game (its name and players: nets/), or
** NULL when there is none. */
const unsigned char *tf_builtin_net(const tafel_game *game, size_t *size);

#endif
