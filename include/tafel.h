/*
** tafel.h -- the public interface of the tafel game engines.
**
** This header is the specification: everything a front end or a bot author
** may use is declared here, and nothing else is exported from the library.
** It knows no game: a game is loaded from a game string, and from then on
** every game is driven through the same calls.
**
** Objects and their life cycles
**   tafel_game    immutable description of one game with its parameters.
**                 Made by tafel_game_load, freed by tafel_game_free.  A game
**                 may be shared between threads.  States do not point to
**                 it: a state stays valid after its game is freed.
**   tafel_state   a position.  It is plain memory of tafel_state_size()
**                 bytes with no pointers inside, so memcpy copies it
**                 (tafel_state_copy does exactly that).  Made by
**                 tafel_state_new or tafel_state_clone, or placed by the
**                 caller in its own memory with tafel_state_init; freed by
**                 tafel_state_free.  One state must not be used by two
**                 threads at once; distinct states may.
**   tafel_record  a game string, player names, a seed and a list of action
**                 texts: a game that replays exactly.  JSON on disk.
**   tafel_bot     a computer player.  It sees the game only through this
**                 header, and decides from one seat's view.
**
** Whose turn
**   tafel_state_current returns a seat (0..players-1), TAFEL_CHANCE when
**   the next action is a random event (a tile drawn, a card dealt, a die
**   rolled), or TAFEL_TERMINAL when the game is over.  Chance events are
**   actions like any other: tafel_state_chance_outcomes lists them with
**   their probabilities, and a record holds them, so a record replays a game
**   exactly and a test can force any situation.
**
** Errors
**   Fallible calls return a tafel_status (TAFEL_OK is 0).  When the caller
**   passes a tafel_error, it is filled with the status and a message naming
**   what was wrong ("players must be 2..5", "action 14 'place 3 0 90': the
**   tile does not fit there").  The error pointer may be NULL.  A call that
**   fails leaves every object as it was.
*/
#ifndef TAFEL_H
#define TAFEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TAFEL_API __attribute__((visibility("default")))
#else
#define TAFEL_API
#endif

#define TAFEL_VERSION "0.1.0"

/* ---------------------------------------------------------------------------
** Status codes.  One list makes the enum and the messages.
*/
#define TAFEL_STATUS_MAP(X)                                                    \
    X(OK, "ok")                                                                \
    X(EINVAL, "invalid argument")                                              \
    X(EGAME, "unknown game")                                                   \
    X(EPARAM, "bad game parameter")                                            \
    X(EILLEGAL, "illegal action")                                              \
    X(EPARSE, "cannot read action")                                            \
    X(ERECORD, "bad record")                                                   \
    X(EBOT, "bad bot")                                                         \
    X(ENOMEM, "out of memory")                                                 \
    X(EIO, "input/output error")                                               \
    X(ESTATE, "inconsistent state")

typedef enum tafel_status {
#define TAFEL_X_(name, msg) TAFEL_##name,
    TAFEL_STATUS_MAP(TAFEL_X_)
#undef TAFEL_X_
} tafel_status;

/* Where fallible calls explain themselves.  code is a tafel_status. */
typedef struct tafel_error {
    int code;
    char message[256];
} tafel_error;

/* The generic message of a status ("illegal action"). Never NULL. */
TAFEL_API const char *tafel_status_string(int status);

/* text made safe to print: control characters escaped (\x1b, \u009b: text
** from a record or a player must not drive the terminal that shows it),
** and cut with "..." to fit size - 1 bytes (a UTF-8 character is never
** split).  Returns buf.  The library's own messages quote input this way. */
TAFEL_API const char *tafel_quote(const char *text, char *buf, size_t size);

/* ---------------------------------------------------------------------------
** Actions and seats.
**
** An action is a non-negative integer, below tafel_game_num_distinct_actions,
** whose meaning is private to the game; its text form (tafel_action_to_text) is the game's notation from the
** rules file and is what records and front ends use.  The integer of an
** action may depend on the state it is played in: convert text against the
** state the action is for.
*/
typedef int32_t tafel_action;

#define TAFEL_CHANCE (-1)
#define TAFEL_TERMINAL (-2)

#define TAFEL_MAX_PLAYERS 5

/* Longest action text, including the terminating zero. */
#define TAFEL_ACTION_TEXT_MAX 64

/* ---------------------------------------------------------------------------
** Games.
*/
typedef struct tafel_game tafel_game;

/* Load a game from a game string such as
**   "carcassonne(players=3,crop_circles=true)".
** Parameters left out take their defaults; "carcassonne" alone is valid.
** Errors: TAFEL_EGAME (unknown game), TAFEL_EPARAM (unknown parameter,
** value out of range, "players must be 2..5"), TAFEL_ENOMEM.
** On success *out owns a new game; on failure *out is NULL. */
TAFEL_API int tafel_game_load(const char *game_string, tafel_game **out,
                              tafel_error *err);
TAFEL_API void tafel_game_free(tafel_game *game); /* NULL is fine */

/* The game's name ("carcassonne") and its canonical game string: the name
** with every parameter that differs from its default, plus players.
** Loading the canonical string gives an identical game.  Owned by game. */
TAFEL_API const char *tafel_game_name(const tafel_game *game);
TAFEL_API const char *tafel_game_string(const tafel_game *game);
TAFEL_API int tafel_game_players(const tafel_game *game);

/* Bytes of one state of this game (a multiple of 8). */
TAFEL_API size_t tafel_game_state_size(const tafel_game *game);

/* An upper bound on the number of legal actions (or chance outcomes) of any
** state of this game: an array this long never truncates. */
TAFEL_API int tafel_game_max_actions(const tafel_game *game);
/* An upper bound on every action integer of this game (they are all below
** it): the size of a fixed action space for learners, as OpenSpiel's
** num_distinct_actions.  Much larger than max_actions where actions are
** coordinates (Carcassonne's placements: 272,144). */
TAFEL_API int tafel_game_num_distinct_actions(const tafel_game *game);
/* 1 when players hold information others may not see (hands, face-down
** cards): views differ by seat, and front ends hide them between turns. */
TAFEL_API int tafel_game_hidden_information(const tafel_game *game);

/* The game's pieces as one JSON object (malloc'd; the caller frees it), for
** front ends that draw them from the engine's data rather than their own:
** Carcassonne's tile types ({"tiles": {"A": {"count", "edges" ("FFRF": N E
** S W), "crop", "segments": [{"kind", "edges", "halves", "pennant",
** "borders"}]}}}), the card games' cards.  "{}" for a game with nothing to
** describe; NULL when out of memory. */
TAFEL_API char *tafel_game_pieces_json(const tafel_game *game);

/* The registry of games, for listings: i from 0 while it returns non-NULL.
** params_help (if not NULL) receives one line per parameter, cut to size:
** "players=2..5 (default 2)  number of players". */
TAFEL_API const char *tafel_game_info(int i, const char **summary,
                                      char *params_help, size_t size);

/* ---------------------------------------------------------------------------
** States.
*/
typedef struct tafel_state tafel_state;

/* The initial state of a game (before any chance action).  NULL when out of
** memory.  Free with tafel_state_free. */
TAFEL_API tafel_state *tafel_state_new(const tafel_game *game);

/* The initial state, written into memory the caller owns: memory must hold
** tafel_game_state_size(game) bytes, aligned to 8. */
TAFEL_API tafel_state *tafel_state_init(const tafel_game *game, void *memory);

TAFEL_API tafel_state *tafel_state_clone(const tafel_state *state);
/* dst must hold a state of the same game (or at least size bytes). */
TAFEL_API void tafel_state_copy(tafel_state *dst, const tafel_state *src);
TAFEL_API void tafel_state_free(tafel_state *state); /* NULL is fine */
TAFEL_API size_t tafel_state_size(const tafel_state *state);
/* 1 when two states are the same position (byte for byte), else 0. */
TAFEL_API int tafel_state_equal(const tafel_state *a, const tafel_state *b);

TAFEL_API int tafel_state_players(const tafel_state *state);
/* A seat, TAFEL_CHANCE or TAFEL_TERMINAL. */
TAFEL_API int tafel_state_current(const tafel_state *state);
/* Actions completed so far (chance included). */
TAFEL_API int tafel_state_move_number(const tafel_state *state);

/* The legal actions of the player to move, sorted ascending, written to out
** (at most cap of them).  Returns how many there are, which may exceed cap.
** At a chance node this lists the chance outcomes; at a terminal state, 0. */
TAFEL_API int tafel_state_legal_actions(const tafel_state *state,
                                        tafel_action *out, int cap);

/* 1 if action is legal now, else 0. */
TAFEL_API int tafel_state_is_legal(const tafel_state *state,
                                   tafel_action action);

/* At a chance node: the outcomes (sorted) and their probabilities, which sum
** to 1.  prob may be NULL.  Returns the number of outcomes (0 if the state
** is not a chance node), which may exceed cap. */
TAFEL_API int tafel_state_chance_outcomes(const tafel_state *state,
                                          tafel_action *out, double *prob,
                                          int cap);

/* Draw a chance outcome with its probability, using *rng (see tafel_rng_).
** Returns TAFEL_EINVAL if the state is not a chance node. */
TAFEL_API int tafel_state_sample_chance(const tafel_state *state,
                                        uint64_t *rng, tafel_action *out);

/* Play action (a chance outcome at a chance node).  An action that is not
** legal gives TAFEL_EILLEGAL with a message saying why, and the state is
** unchanged. */
TAFEL_API int tafel_state_apply(tafel_state *state, tafel_action action,
                                tafel_error *err);

/* One step of a random playout: at a chance node an outcome drawn with its
** probability, else one of the legal actions, each equally likely, and it
** is played.  It draws exactly as tafel_state_sample_chance, or as
** tafel_state_legal_actions with tafel_rng_below(rng, n), followed by
** tafel_state_apply, so a seed gives the same game either way; it is faster,
** since the engine does not check again an action it chose itself.  scratch
** holds the list: cap must be at least tafel_game_max_actions (else
** TAFEL_EINVAL).  *played, if not NULL, receives the action.  TAFEL_ESTATE
** at a terminal state. */
TAFEL_API int tafel_state_play_random(tafel_state *state, uint64_t *rng,
                                      tafel_action *scratch, int cap,
                                      tafel_action *played);

/* Text to action and back, in the game's notation ("place 1 0 90").
** tafel_action_from_text accepts every spelling the notation allows and
** only legal actions: TAFEL_EPARSE for text that is no action at all,
** TAFEL_EILLEGAL for a well-formed action that is not legal now.
** tafel_action_to_text writes the canonical text of a legal action
** (snprintf-like: returns the length it needed, -1 for an action that means
** nothing here). */
TAFEL_API int tafel_action_from_text(const tafel_state *state,
                                     const char *text, tafel_action *out,
                                     tafel_error *err);
TAFEL_API int tafel_action_to_text(const tafel_state *state,
                                   tafel_action action, char *buf,
                                   size_t size);
/* The text of action (about to be played in state) as seat sees it (seat
** -1: a spectator): a card seat may not see is "?" ("deal 1 ?",
** "play ? G").  For showing other players' moves; records keep the full
** text.  -1 (and an empty buf) for a seat out of range, like to_text for
** an action that is none. */
TAFEL_API int tafel_action_view_text(const tafel_state *state, int seat,
                                     tafel_action action, char *buf,
                                     size_t size);
/* from_text then apply, as one call. */
TAFEL_API int tafel_state_apply_text(tafel_state *state, const char *text,
                                     tafel_error *err);

/* Scores so far, one per seat (out holds players() values). */
TAFEL_API void tafel_state_scores(const tafel_state *state, double *out);
/* The scores if the game ended now, final scoring applied.  At a terminal
** state the same as tafel_state_scores. */
TAFEL_API void tafel_state_projected(const tafel_state *state, double *out);
/* A cheap game-specific estimate of each seat's final score, for bots:
** projected scores plus what followers, open features and cards in hand are
** likely worth.  It reads the whole state: a bot of a game with hidden
** information calls it on a copy resampled for its own seat. */
TAFEL_API void tafel_state_heuristic(const tafel_state *state, double *out);
/* At a terminal state: the winning seats (several on a shared win), written
** to out, and their number.  0 when the game is not over. */
TAFEL_API int tafel_state_winners(const tafel_state *state, int *out);
/* At a terminal state: each seat's reward, written to out (players floats):
** +1 for each winner, -1 for the others, and 0 for all when every seat
** wins; 0 for all while the game is not over.  The one definition that
** tafel_batch_step and `tafel selfplay` (the outcome of a sample) use.
** Returns the number of players. */
TAFEL_API int tafel_state_rewards(const tafel_state *state, float *out);

/* One seat's points by category ("road", "city", "cloister", "farm", ...),
** final scoring included at a terminal state.  Writes up to cap names
** (static strings) and values; returns the number of categories. */
TAFEL_API int tafel_state_score_breakdown(const tafel_state *state, int seat,
                                          const char **names, double *values,
                                          int cap);

/* What one seat may see, as a JSON object (a malloc'd string the caller
** frees with free()).  seat may also be -1: a spectator, who sees only
** what is public.  NULL when out of memory or seat is out of range. */
TAFEL_API char *tafel_state_view_json(const tafel_state *state, int seat);

/* Replace everything seat cannot see by a random assignment consistent with
** what it has seen (for information-set search).  Games with no hidden
** information beyond the order of a shuffled pile leave the state as it is. */
TAFEL_API int tafel_state_resample(tafel_state *state, int seat,
                                   uint64_t *rng);

/* Whether action a, taken by the seat to move, shows that seat something it
** could not see before (a card drawn from a hidden stack, the cards a round
** scoring turns up): played from positions that look the same to the seat,
** a resampled by tafel_state_resample, the seat's view after it differs.
** Such an action must not be taken back (undo would let a player peek).
** 0 in games without hidden information; 1 for a chance event, an illegal
** action or when memory runs out.  Eight resamples from a fixed seed: the
** same answer every time for the same state and action. */
TAFEL_API int tafel_state_action_reveals(const tafel_state *state, tafel_action a);

/* Whether action a, legal in state, is a request to another seat: an action
** the other must answer (in the Catan card game an offer, and "negotiate",
** which leads to one), for a person a question on the screen.  The game
** decides, and says too when a request should not be made now by a seat
** with manners: TAFEL_REQUEST_SPENT when the seat has made one this turn or
** this one was turned down before in the game (for "negotiate": every offer
** it could lead to was).  The rules allow it all the same; the built-in
** bots leave spent requests out of their choice unless nothing else is
** legal.  0 (not a request) for an illegal action, at chance or at the end,
** and in games without requests. */
#define TAFEL_REQUEST 1
#define TAFEL_REQUEST_SPENT 2
TAFEL_API int tafel_state_action_request(const tafel_state *state, tafel_action a);

/* The account of action a, about to be played in state, as seat sees it
** (seat -1: a spectator): what the action did, in the rules' terms, as a
** JSON array of events (a malloc'd string in *json_out; the caller frees
** it).  Each event is an object {"kind": ..., fields}: a tile placed, a
** feature completed and who scored it and why, a card dealt ("?" where the
** seat may not see it), dice rolled, goods produced.  Every event that
** changes a score carries "points", one number per seat, so the points of
** all accounts of a game add up, seat by seat, to its scores.  The account
** holds nothing the seat's view does not: two states that differ only in
** what seat cannot see give it the same account.  docs/events.md lists the
** kinds of every game and their fields.  Computed on a copy: state is not
** changed, and tafel_state_apply is as fast as without it.
** Errors: TAFEL_EINVAL (seat out of range, json_out NULL), TAFEL_EILLEGAL
** (with tafel_state_apply's message), TAFEL_ENOMEM; *json_out is NULL then. */
TAFEL_API int tafel_state_describe(const tafel_state *state, tafel_action a,
                                   int seat, char **json_out,
                                   tafel_error *err);

/* A text picture of the position as seat sees it (seat -1: spectator), for
** terminals: the board, scores, what is in hand, each other player's last
** move marked.  flags: TAFEL_RENDER_COLOR for ANSI colours;
** TAFEL_RENDER_WHOLE for the whole board (by default a large board is cut
** to the part around the last moves and the legal places, in 80 columns
** and about 40 lines, saying what is left out); TAFEL_RENDER_KEY for a key
** of the symbols drawn, after the picture; TAFEL_RENDER_WORDS for every
** piece of words (sentences, titles, seat names, the key's explanations) as
** an event for the front end to say in its language, inline and set off
** by two control characters: \x1e{"kind":"pile","count":60}\x1f, said
** by the catalogs' template <game>.view.<kind> (docs/catalogs.md); a field
** "pad" asks for the said words padded with blanks to that many characters.
** The drawing, card codes, tile letters and notation stay as they are.
** Without it the words are English.  malloc'd; the caller frees it. */
#define TAFEL_RENDER_COLOR 1
#define TAFEL_RENDER_WHOLE 2
#define TAFEL_RENDER_KEY 4
#define TAFEL_RENDER_WORDS 8
TAFEL_API char *tafel_state_render(const tafel_state *state, int seat,
                                   int flags);

/* Cross-check the whole state (the game's invariants).  TAFEL_ESTATE with a
** description when something is wrong.  For tests. */
TAFEL_API int tafel_state_check(const tafel_state *state, tafel_error *err);

/* ---------------------------------------------------------------------------
** For learners: tensors and a fixed action space (docs/tensors.md), named
** as OpenSpiel names them so that code ported from it reads the same.
**
** A tensor is float32, row-major, of a shape fixed by the game string.  The
** observation tensor is what seat sees now; the information-state tensor
** adds what seat has seen and can no longer see (cards shown and then
** hidden, what a search turned up), for imperfect-information algorithms;
** in a game without hidden information the two hold the same.  seat may be
** -1 (a spectator: only what is public).  Each part of a tensor has a name,
** listed by tafel_game_tensor_part and documented per game.
*/
#define TAFEL_OBSERVATION 0
#define TAFEL_INFORMATION_STATE 1
#define TAFEL_TENSOR_MAX_RANK 4

/* The shape of tensor kind (TAFEL_OBSERVATION or TAFEL_INFORMATION_STATE):
** its rank (at most TAFEL_TENSOR_MAX_RANK dims written to dims), or -1 for
** an unknown kind.  tafel_game_tensor_size: the number of floats. */
TAFEL_API int tafel_game_tensor_shape(const tafel_game *game, int kind, int *dims);
TAFEL_API size_t tafel_game_tensor_size(const tafel_game *game, int kind);
/* The i-th part of tensor kind, in order (i from 0 while it returns
** non-NULL): its name ("city_edges"), first float and number of floats. */
TAFEL_API const char *tafel_game_tensor_part(const tafel_game *game, int kind, int i,
                                             size_t *offset, size_t *size);

/* Write seat's tensor of kind into out, which holds size floats (exactly
** tafel_game_tensor_size).  Errors: TAFEL_EINVAL (kind, seat or size).
** No allocation: cheap enough to call at every step. */
TAFEL_API int tafel_state_observation_tensor(const tafel_state *state, int seat,
                                             float *out, size_t size, tafel_error *err);
TAFEL_API int tafel_state_information_state_tensor(const tafel_state *state, int seat,
                                                   float *out, size_t size,
                                                   tafel_error *err);

/* seat's information state after history (every action from the initial
** state, chance outcomes included) as text: two histories give the same
** string exactly when seat cannot tell them apart (what it saw of each
** action, in order: tafel_action_view_text).  Seat -1 is a spectator, who
** sees only what is public.  A malloc'd string the caller
** frees; NULL with err set when an action of history is illegal, seat is
** out of range, or memory runs out.  A state holds no history, hence the
** actions. */
TAFEL_API char *tafel_information_state_string(const tafel_game *game,
                                               const tafel_action *history, int count,
                                               int seat, tafel_error *err);

/* The fixed action space: every action a seat may take has an index below
** tafel_game_action_space_size that means the same in every state (a
** policy head of that size); chance outcomes have none.  In Carcassonne a
** placement is a cell of the board window and a turn, a follower the
** position of its feature on the tile.  Smaller than
** tafel_game_num_distinct_actions, whose integers may mean different
** things in different states. */
TAFEL_API int tafel_game_action_space_size(const tafel_game *game);
/* The index of action a of the seat to move in state, or -1 (a chance
** outcome, an action the state does not have, or one outside the space:
** a Carcassonne tile placed beyond the window). */
TAFEL_API int tafel_state_action_index(const tafel_state *state, tafel_action a);
/* The action of the seat to move that index names in state.  Errors:
** TAFEL_EINVAL (index out of range, or a chance node or the end),
** TAFEL_EILLEGAL (no action of this state has that index). */
TAFEL_API int tafel_state_index_action(const tafel_state *state, int index,
                                       tafel_action *out, tafel_error *err);
/* mask[i] = 1 for the index of every legal action, 0 elsewhere; size bytes
** (at least tafel_game_action_space_size; the rest is zeroed).  Returns how
** many are legal: 0 at a chance node or the end (then the mask is all 0),
** -1 when size is too small.  A legal action outside the space (see
** tafel_state_action_index) has no bit; tafel_state_legal_actions counts
** it. */
TAFEL_API int tafel_state_legal_actions_mask(const tafel_state *state, uint8_t *mask,
                                             size_t size);

/* ---------------------------------------------------------------------------
** Batches: n states of one game stepped in one call, for learning.  The
** caller owns every buffer: obs holds n tensors of kind (n *
** tafel_game_tensor_size floats), masks n masks (n *
** tafel_game_action_space_size bytes), to_move n seats, rewards n *
** players floats, done n bytes; any may be NULL.  Chance is drawn inside
** (each state has its own rng, tafel_batch_rng(seed, i)), so every state
** in a batch is at a seat's decision.
*/
typedef struct tafel_batch tafel_batch;

/* n states (1 to 2^20) of game, seeded from seed; kind: the tensor that
** observe and step write (TAFEL_OBSERVATION or TAFEL_INFORMATION_STATE).
** NULL with err set on a bad argument or no memory. */
TAFEL_API tafel_batch *tafel_batch_new(const tafel_game *game, int n, uint64_t seed,
                                       int kind, tafel_error *err);
TAFEL_API void tafel_batch_free(tafel_batch *batch); /* NULL is fine */
TAFEL_API int tafel_batch_size(const tafel_batch *batch);
/* State i (to read: its view, scores, text), or NULL out of range. */
TAFEL_API const tafel_state *tafel_batch_state(const tafel_batch *batch, int i);
/* The rng state i of a batch of seed starts with (a single state given it
** and the same actions plays the same games). */
TAFEL_API uint64_t tafel_batch_rng(uint64_t seed, int i);
/* For each state: the seat to move, its tensor and its legal mask. */
TAFEL_API int tafel_batch_observe(const tafel_batch *batch, float *obs, uint8_t *masks,
                                  int32_t *to_move, tafel_error *err);
/* What actions[i] may hold beside an action-space index. */
#define TAFEL_BATCH_RANDOM (-1)  /* a legal action drawn from the state's rng */
#define TAFEL_BATCH_KEEP (-2)    /* state i stays as it is (done[i] 0, rewards 0) */
#define TAFEL_BATCH_RESTART (-3) /* the game is left unfinished and the next one
                                    starts, from the state's rng (done[i] 0,
                                    rewards 0; tafel_batch_final_state unchanged) */
/* Plays actions[i] in state i: an action-space index, or -1 for a legal
** action drawn uniformly from the state's rng (as tafel_state_play_random
** draws).  Then chance; a game that ended sets done[i] and writes its
** rewards (+1 each winner, -1 the others, 0 all when every seat wins; 0
** for a game going on), is kept (tafel_batch_final_state) and starts anew
** from the state's rng.  Then observes as tafel_batch_observe (all states,
** those kept as they were too).  -2 and -3 (above) let a caller move some
** states and not others: an opponent's turn in one state while another
** waits for its learner.  An index not legal in its state fails the call
** (TAFEL_EILLEGAL or TAFEL_EINVAL, naming the state) before any state has
** moved. */
TAFEL_API int tafel_batch_step(tafel_batch *batch, const int32_t *actions, float *obs,
                               uint8_t *masks, int32_t *to_move, float *rewards,
                               uint8_t *done, tafel_error *err);
/* The state game i last ended in (at the end: its scores, winners and each
** seat's tensors, e.g. a learner's last observation), or NULL when no game
** of state i has ended yet (or i is out of range).  Valid until the next
** tafel_batch_step. */
TAFEL_API const tafel_state *tafel_batch_final_state(const tafel_batch *batch, int i);

/* ---------------------------------------------------------------------------
** Random numbers: a small, fast generator whose whole state is one uint64_t,
** so that games, bots and simulations are reproducible from a seed.
*/
TAFEL_API uint64_t tafel_rng_seed(uint64_t seed);   /* a good state from any seed */
TAFEL_API uint64_t tafel_rng_next(uint64_t *rng);   /* 64 random bits */
TAFEL_API uint32_t tafel_rng_below(uint64_t *rng, uint32_t n); /* 0..n-1 */
TAFEL_API double tafel_rng_unit(uint64_t *rng);     /* [0, 1) */

/* ---------------------------------------------------------------------------
** Records: {"game": "...", "players": ["human", "greedy"], "seed": 7,
**           "actions": ["draw D", "place 1 0 90", ...]}
** and for a game lost by forfeit "forfeit": {"seat": 1, "reason": "..."};
** a record of a finished game may carry its result, "scores": [87, 102]
** (by seat) and "winners": [1] (seats), as `tafel sim --out` writes it.
*/
typedef struct tafel_record tafel_record;

/* A new, empty record of a game (no player names). */
TAFEL_API tafel_record *tafel_record_new(const char *game_string,
                                         uint64_t seed);
TAFEL_API void tafel_record_free(tafel_record *record); /* NULL is fine */
TAFEL_API int tafel_record_set_player(tafel_record *record, int seat,
                                      const char *name);
/* A game that ended because seat forfeited it (an external bot crashed,
** stalled, answered garbage or an illegal move): reason says what it did.
** The forfeiting seat lost; the others share the win.  seat -1 clears it.
** tafel_record_forfeit returns the seat (-1: none) and, if reason is not
** NULL, sets *reason (owned by the record). */
TAFEL_API int tafel_record_set_forfeit(tafel_record *record, int seat,
                                       const char *reason);
TAFEL_API int tafel_record_forfeit(const tafel_record *record,
                                   const char **reason);
/* The result of the game: scores by seat (players of them) and the
** nwinners winning seats, as its player saw them at the end (with a
** forfeit, the others' shared win).  players 0 clears it.  EINVAL for
** players or nwinners out of 0..TAFEL_MAX_PLAYERS, a winner not a seat
** below players, or a score that is not finite.  tafel_record_result
** copies it out (scores: TAFEL_MAX_PLAYERS doubles, winners as many ints,
** either may be NULL) and returns players, 0 when the record has none (an
** older record).  The record does not check it against its actions: the
** replay does (`tafel replay`, `tafel sim --resume`). */
TAFEL_API int tafel_record_set_result(tafel_record *record, int players,
                                      const double *scores, int nwinners,
                                      const int *winners);
TAFEL_API int tafel_record_result(const tafel_record *record, double *scores,
                                  int *winners, int *nwinners);
/* Append action, as played in state (before it is applied). */
TAFEL_API int tafel_record_push(tafel_record *record, const tafel_state *state,
                                tafel_action action);
/* Append an action already in text form. */
TAFEL_API int tafel_record_push_text(tafel_record *record, const char *text);
/* Keep the first count actions (an undo at the table); EINVAL when count is
** negative or more than the record holds. */
TAFEL_API int tafel_record_truncate(tafel_record *record, int count);

TAFEL_API const char *tafel_record_game_string(const tafel_record *record);
TAFEL_API uint64_t tafel_record_seed(const tafel_record *record);
TAFEL_API int tafel_record_action_count(const tafel_record *record);
TAFEL_API const char *tafel_record_action(const tafel_record *record, int i);
/* Names: NULL for a seat without one. */
TAFEL_API const char *tafel_record_player(const tafel_record *record,
                                          int seat);

/* The record as one line of JSON (malloc'd; the caller frees it). */
TAFEL_API char *tafel_record_to_json(const tafel_record *record);
/* Parse a record.  TAFEL_ERECORD naming what is wrong ("no \"actions\""). */
TAFEL_API int tafel_record_from_json(const char *json, tafel_record **out,
                                     tafel_error *err);
/* Read a record file (the first record of a JSON-lines file). */
TAFEL_API int tafel_record_load_file(const char *path, tafel_record **out,
                                     tafel_error *err);

/* Load the record's game and play its actions from the initial state.
** An action that cannot be read or is illegal stops the replay with
** TAFEL_ERECORD: "action 14 'place 3 0 90': the tile does not fit there".
** On success the caller owns *game_out and *state_out; on failure both
** are NULL. */
TAFEL_API int tafel_record_replay(const tafel_record *record,
                                  tafel_game **game_out,
                                  tafel_state **state_out, tafel_error *err);

/* ---------------------------------------------------------------------------
** Bots.  A bot decides for the seat to move, from that seat's view only.
** A spec names a bot and its options: "random", "greedy",
** "mcts:iters=5000,c=70", "hard".
**
** Threads: a bot is used by one thread at a time, except tafel_bot_stop,
** which any thread may call while another is in tafel_bot_choose or
** tafel_bot_analyse on the bot.  Different bots are independent.
*/
typedef struct tafel_bot tafel_bot;

/* A bot of spec for game.  All its random choices come from seed: the same
** spec and seed make the same choices from the same states (a search bot
** on a time budget: only while the time is not what stops it).  Errors:
** TAFEL_EBOT (unknown bot or option, value out of range), TAFEL_ENOMEM.
** On success *out owns a new bot; on failure *out is NULL. */
TAFEL_API int tafel_bot_new(const char *spec, const tafel_game *game,
                            uint64_t seed, tafel_bot **out, tafel_error *err);
TAFEL_API void tafel_bot_free(tafel_bot *bot); /* NULL is fine */
TAFEL_API const char *tafel_bot_name(const tafel_bot *bot);
/* Choose an action for the seat to move in state (which must be a seat's
** turn).  The state is not changed. */
TAFEL_API int tafel_bot_choose(tafel_bot *bot, const tafel_state *state,
                               tafel_action *out, tafel_error *err);
/* One move a bot considered, as tafel_bot_analyse reports it. */
typedef struct tafel_bot_move {
    tafel_action action;
    double share;   /* of the bot's search spent on it, 0..1 */
    double winrate; /* the seat's estimated chance to win after it, 0..1
                    ** (a win shared by k counts 1/k); -1: no estimate */
} tafel_bot_move;

/* Like tafel_bot_choose, and says why: the moves the bot liked best, best
** first, at most cap (>= 1) of them, written to out; *count receives how
** many.  out[0].action is the bot's choice.  A search bot ("mcts", "hard")
** gives its most searched moves; a bot that does not search, its one
** choice with share 1 and no estimate; so does a search bot with one legal
** move.  Errors as tafel_bot_choose, and TAFEL_EINVAL for cap < 1. */
TAFEL_API int tafel_bot_analyse(tafel_bot *bot, const tafel_state *state,
                                tafel_bot_move *out, int cap, int *count,
                                tafel_error *err);
/* Ask the search running on bot (in tafel_bot_choose or tafel_bot_analyse,
** on another thread) to end: it ends at its next look, within a few
** milliseconds, and answers with the best move it has so far -- always a
** legal one, and TAFEL_OK.  A stop that comes while no search runs ends
** the next one at once (after the least search that names a move); each
** search uses up the stop that ended it.  Safe from any thread and from a
** signal handler (one atomic store); NULL is fine. */
TAFEL_API void tafel_bot_stop(tafel_bot *bot);
/* Cap the time of each later choice (tafel_bot_choose, tafel_bot_analyse)
** at ms milliseconds, over whatever budget the spec gives; 0 removes the
** cap.  A search that reaches the cap ends as if stopped (tafel_bot_stop);
** one that ends before it chooses exactly as it would without the cap, so
** an iteration budget stays deterministic under a cap it does not reach.
** "random" ends at once anyway; "greedy" judges the actions it had no time
** for one decision deep.  Not while a choice runs on the bot.  Errors:
** TAFEL_EINVAL (no bot, ms < 0). */
TAFEL_API int tafel_bot_set_time_cap(tafel_bot *bot, int ms, tafel_error *err);

/* A leaf evaluator for the search bots (docs/bots.md, "Evaluators"): a
** search with one ends an iteration not with a rollout but by handing the
** position it reached (a leaf) to evaluate, up to batch leaves a call.  A
** leaf is a state at a seat's decision (chance already drawn), dealt by the
** search for the seat it searches for: its hidden cards are a guess made
** from what that seat may see, so reading the whole state is fair, and a
** net may as well read the to-move seat's tensors.  evaluate writes
** values[i * players + p], seat p's expected share of the win at leaf i,
** 0..1 (1: a sure win; a win shared by k seats: 1/k each); and, when priors
** is non-NULL, priors[i * space + k] for every index k of the action space
** (space: tafel_game_action_space_size): how much the search should favour
** the to-move seat's action of index k at leaf i, >= 0, read at legal
** indices only and normalised there.  With priors the search chooses by
** PUCT (AlphaZero's rule, option cpuct), without them by UCB1 as before.
** The leaves of one call are searched with a virtual loss, so that they
** differ.  A nonzero return ends the search with that error. */
typedef struct tafel_evaluator {
    int (*evaluate)(void *ctx, const tafel_state *const *leaves, int n, float *values,
                    float *priors, tafel_error *err);
    void *ctx;  /* handed to evaluate; must live as long as the bot uses it */
    int batch;  /* leaves a call at most, 1..TAFEL_EVALUATOR_MAX_BATCH */
    int priors; /* nonzero: the search asks for priors */
} tafel_evaluator;
#define TAFEL_EVALUATOR_MAX_BATCH 1024

/* Give a search bot (mcts, easy, medium, hard) an evaluator, copied, or
** NULL to go back to rollouts; a bot that has its own ("expert") gets the
** given one instead.  Not while a choice runs on the bot.  Errors:
** TAFEL_EBOT (a bot that does not search), TAFEL_EINVAL (no evaluate,
** batch out of range), TAFEL_ENOMEM. */
TAFEL_API int tafel_bot_set_evaluator(tafel_bot *bot, const tafel_evaluator *evaluator,
                                      tafel_error *err);
/* Nets (docs/nets.md): a value net, and optionally a policy net, read
** from a weights file (the format is documented there; nets/train.py writes
** it from PyTorch) and run in C, for one game and number of players.  The
** input is a seat's tensor of the kind the net was trained on; the outputs
** are each seat's share of the win (a softmax, seats ordered from the
** observer as the tensors order them: the observer first) and, with a
** policy, one logit for each index of the action space.  A net is used by
** one thread at a time. */
typedef struct tafel_net tafel_net;

/* A net from size bytes of a weights file, for game (its name, players and
** tensor must be the net's).  Errors: TAFEL_EPARSE (not a weights file,
** cut short, a size that does not add up), TAFEL_EGAME (made for another
** game), TAFEL_ENOMEM.  The bytes are copied. */
TAFEL_API int tafel_net_load(const tafel_game *game, const void *bytes, size_t size,
                             tafel_net **out, tafel_error *err);
/* The same from a file: TAFEL_EIO too. */
TAFEL_API int tafel_net_read(const tafel_game *game, const char *path, tafel_net **out,
                             tafel_error *err);
TAFEL_API void tafel_net_free(tafel_net *net); /* NULL is fine */
/* The tensor kind the net reads (TAFEL_OBSERVATION or
** TAFEL_INFORMATION_STATE), and whether it has a policy. */
TAFEL_API int tafel_net_kind(const tafel_net *net);
TAFEL_API int tafel_net_has_policy(const tafel_net *net);
/* Run the net on n inputs (n * tensor size floats): values gets n *
** players floats, policy (NULL: not wanted) n * action space logits. */
TAFEL_API int tafel_net_forward(tafel_net *net, const float *inputs, int n, float *values,
                                float *policy, tafel_error *err);
/* Make net the bot's evaluator, batch leaves a call: values from each
** leaf's seat to move's tensor (turned back to seats), priors (when the
** net has a policy) the softmax of its logits over the legal indices.  The
** net must outlive the bot's use of it.  Errors as tafel_bot_set_evaluator,
** and TAFEL_EGAME (a net of another game). */
TAFEL_API int tafel_bot_set_net(tafel_bot *bot, tafel_net *net, int batch, tafel_error *err);

/* The registry of bots: i from 0 while it returns non-NULL. */
TAFEL_API const char *tafel_bot_info(int i, const char **summary);

#ifdef __cplusplus
}
#endif

#endif /* TAFEL_H */
