/*
** invariants.h -- the generic invariants of tafel.h, checked on any state of
** any game through the public API (OpenSpiel's RandomSimTest without a test
** framework).  `tafel soak` runs them after every action of millions of
** random games; the conformance suite (tests/test_conformance.c) runs them
** beside its own, white-box checks.
**
** Each check returns 0 when the invariant holds, else 1 with what failed in
** inv->why ("legal actions not sorted and unique: 14 then 14").  A checker
** owns its scratch states and lists, so checks never allocate but for the
** views and the record they compare; one checker serves one thread.
*/
#ifndef TF_CLI_INVARIANTS_H
#define TF_CLI_INVARIANTS_H

#include "tafel.h"

typedef struct inv_checker {
    int players, cap;         /* seats; tafel_game_max_actions */
    int distinct;             /* tafel_game_num_distinct_actions */
    tafel_action *legal;      /* the legal actions inv_check_position listed */
    int nlegal;
    tafel_action *outcomes, *fast_list;
    double *prob;
    tafel_state *copy, *other, *again, *fast;
    long resamples, resamples_changed; /* by inv_check_views: did they deal anew? */
    char text[TAFEL_ACTION_TEXT_MAX];  /* the action of the last inv_step */
    /* the accounts (tafel_state_describe) of the actions inv_step played */
    tafel_state *before;               /* the state the last action was played in */
    tafel_action last;                 /* that action; -1: none yet */
    double account_points[TAFEL_MAX_PLAYERS]; /* their points, since inv_account_start */
    double start_scores[TAFEL_MAX_PLAYERS];
    long accounts_compared;            /* by inv_check_account, across resamples */
    /* the learners' calls (inv_check_learners); sizes 0 for a game without them */
    size_t tensor_size[2];             /* TAFEL_OBSERVATION, TAFEL_INFORMATION_STATE */
    float *tensor, *tensor_again;
    int space;                         /* tafel_game_action_space_size */
    unsigned char *mask;
    long indexed, unindexed;           /* legal actions with an index, and without */
    char why[512];
} inv_checker;

/* A checker for states of game: TAFEL_OK or TAFEL_ENOMEM. */
int inv_init(inv_checker *inv, const tafel_game *game);
void inv_free(inv_checker *inv); /* also after a failed inv_init */

/* The state's own tafel_state_check; a clone and a copy compare equal; the
** legal actions are sorted, unique, at most tafel_game_max_actions, and each
** tafel_state_is_legal; at a chance node they are the chance outcomes, whose
** probabilities are positive and sum to 1; elsewhere there are no outcomes;
** a seat's turn has actions, a terminal state none.  Leaves the list in
** inv->legal and inv->nlegal, for inv_step. */
int inv_check_position(inv_checker *inv, const tafel_state *state);

/* Views leak nothing: for each seat, a copy resampled for that seat passes
** the check, has the same player to move and shows that seat the same view,
** byte for byte; and resampling depends on that view alone (two states
** that differ only in what the seat cannot see resample alike). */
int inv_check_views(inv_checker *inv, const tafel_state *state,
                    uint64_t *rng);

/* The learners' calls agree with the rest (inv_check_position has just
** listed state): at a seat's turn the legal mask holds exactly the indices
** of the legal actions, distinct, each mapped back to its action, and an
** index not in the mask is refused; elsewhere the mask is empty.  Every
** seat's tensors (and a spectator's) have the game's size, are finite and
** written the same twice.  With views set, the tensors of a copy resampled
** for a seat are that seat's tensors byte for byte: a tensor shows nothing
** its seat cannot see.  Nothing is checked for a game without them. */
int inv_check_learners(inv_checker *inv, const tafel_state *state, uint64_t *rng,
                       int views);

/* One random step (inv_check_position has just listed state): an outcome
** drawn with its probability at a chance node, else a legal action drawn
** with tafel_rng_below, appended to record (unless NULL) and played; its
** text reads back as the action (left in inv->text).  tafel_state_play_random
** on a copy, from the same rng, must draw and play the same action to the
** same state.  At a terminal state nothing is played, and play_random must
** refuse, leaving the state as it was. */
int inv_step(inv_checker *inv, tafel_state *state, uint64_t *rng,
             tafel_record *record);

/* From state on, the points of the accounts of the actions inv_step plays
** are summed (a new game: call it at its initial state). */
void inv_account_start(inv_checker *inv, const tafel_state *state);

/* The account of the action inv_step just played (state is the position
** after it): a JSON array of events with a "kind" each and, for seat -1,
** points that are the change of the scores, seat by seat; at the end of the
** game the points of all accounts add up to the scores.  With views set,
** every seat's account too: its points are the spectator's, and a copy of
** the position before, resampled for the seat, gives the seat the same
** account, byte for byte, whenever the action is legal there too and shows
** the seat the same view after it (what the seat cannot see, even after the
** action, changes nothing it is told). */
int inv_check_account(inv_checker *inv, const tafel_state *state, uint64_t *rng,
                      int views);

/* The record holds every action to state, and written as JSON and read
** back, replays to state byte for byte. */
int inv_check_record(inv_checker *inv, const tafel_record *record,
                     const tafel_state *state);

#endif
