/*
** nn_blas.c -- the library's forward pass against OpenBLAS (docs/nets.md, "Speed").
**
** For the nets nets/train.py builds (SHAPES there), with random weights and
** real tensors from random play: tafel_net_forward (the library's loop) and
** the same net done with OpenBLAS, im2col + cblas_sgemm for the
** convolutions and sgemm over the batch for the dense layers.  Both read
** the same floats: the weights file is written here, in memory, in the
** format src/nn/net.c reads, and loaded with tafel_net_load.  The outputs
** must agree (to 1e-4 of the larger of 1 and the largest output), else the
** figures mean nothing and the program fails.
**
** One thread (openblas_set_num_threads(1)): a search runs one net per
** thread.  Each figure is the median of RUNS passes over INPUTS tensors,
** in microseconds per input.  Built only where OpenBLAS is found (target
** nn-blas-bench); the library never links it.
*/
#include <tafel.h>

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INPUTS 256
#define RUNS 7
#define MAX_LAYERS 8

/* A net's shape, as nets/train.py's SHAPES gives it for the game. */
typedef struct shape {
    const char *label, *game;
    int kind, planes, board, squeeze, policy; /* policy: 1 for the game's action space */
    int nconv, convs[MAX_LAYERS], nhidden, hidden[MAX_LAYERS];
} shape;

/* One layer's floats in the file's order: w[out][in] (a convolution's
** [cout][cin][3][3]), then b[out]. */
typedef struct layer {
    int in, out;
    float *w, *b;
} layer;

/* The BLAS twin of a net, and its scratch for a batch of up to 32. */
typedef struct twin {
    int inputs, planes, side, squeeze, players, policy, nconv, nhidden;
    layer conv[MAX_LAYERS], sq, hidden[MAX_LAYERS], value, pol;
    float *col, *act[2], *dense[2];
} twin;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Bytes of the file, appended. */
typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *bytes, size_t n) {
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, bytes, n);
    b->n += n;
}

static void put_i32(buf *b, int v) {
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24)};
    put(b, le, 4);
}

/* Random weights (uniform, He's scale, so that activations neither die nor
** grow through the layers), written to the file as little-endian float32. */
static void make_layer(buf *file, layer *l, int in, int out, int fan_in, uint64_t *rng) {
    l->in = in, l->out = out;
    l->w = malloc((size_t)in * out * sizeof *l->w);
    l->b = malloc((size_t)out * sizeof *l->b);
    float scale = sqrtf(6.0f / (float)fan_in);
    for (size_t i = 0; i < (size_t)in * out; i++)
        l->w[i] = (float)(tafel_rng_unit(rng) * 2 - 1) * scale;
    for (int o = 0; o < out; o++) l->b[o] = (float)(tafel_rng_unit(rng) * 2 - 1) * 0.1f;
    for (size_t i = 0; i < (size_t)in * out; i++) {
        uint32_t v;
        memcpy(&v, &l->w[i], 4);
        put_i32(file, (int)v);
    }
    for (int o = 0; o < out; o++) {
        uint32_t v;
        memcpy(&v, &l->b[o], 4);
        put_i32(file, (int)v);
    }
}

/* The weights file (src/nn/net.c's loader: magic, header, layers) and the
** twin holding the same floats. */
static buf make_net(const shape *s, const tafel_game *game, twin *t) {
    buf file = {0};
    uint64_t rng = tafel_rng_seed(38);
    memset(t, 0, sizeof *t);
    t->inputs = (int)tafel_game_tensor_size(game, s->kind);
    t->planes = s->planes, t->side = s->board, t->squeeze = s->squeeze;
    t->players = tafel_game_players(game);
    t->policy = s->policy ? tafel_game_action_space_size(game) : 0;
    t->nconv = s->nconv, t->nhidden = s->nhidden;
    put(&file, "TAFELNN\001", 8);
    int header[] = {1, 4, s->kind, t->inputs, s->planes, s->board, s->squeeze, t->players,
                    t->policy, s->nconv, s->nhidden};
    for (size_t i = 0; i < sizeof header / sizeof *header; i++) put_i32(&file, header[i]);
    for (int k = 0; k < s->nconv; k++) put_i32(&file, s->convs[k]);
    for (int j = 0; j < s->nhidden; j++) put_i32(&file, s->hidden[j]);
    char name[32] = {0};
    snprintf(name, sizeof name, "%s", tafel_game_name(game));
    put(&file, name, sizeof name);
    int channels = s->planes, cells = s->board * s->board, width = t->inputs;
    for (int k = 0; k < s->nconv; k++) {
        make_layer(&file, &t->conv[k], channels * 9, s->convs[k], channels * 9, &rng);
        channels = s->convs[k];
    }
    if (s->planes) {
        make_layer(&file, &t->sq, channels, s->squeeze, channels, &rng);
        width = s->squeeze * cells + t->inputs - s->planes * cells;
    }
    for (int j = 0; j < s->nhidden; j++) {
        make_layer(&file, &t->hidden[j], width, s->hidden[j], width, &rng);
        width = s->hidden[j];
    }
    make_layer(&file, &t->value, width, t->players, width, &rng);
    make_layer(&file, &t->pol, width, t->policy, width, &rng);
    /* scratch for a batch of 32 */
    size_t most = (size_t)s->planes * 9 * cells, acts = (size_t)s->planes * cells;
    for (int k = 0; k < s->nconv; k++) {
        if ((size_t)s->convs[k] * 9 * cells > most) most = (size_t)s->convs[k] * 9 * cells;
        if ((size_t)s->convs[k] * cells > acts) acts = (size_t)s->convs[k] * cells;
    }
    size_t widest = (size_t)t->inputs + (size_t)s->squeeze * cells;
    for (int j = 0; j < s->nhidden; j++) widest += (size_t)s->hidden[j];
    t->col = malloc(32 * most * sizeof(float) + 64);
    for (int h = 0; h < 2; h++) {
        t->act[h] = malloc(32 * acts * sizeof(float) + 64);
        t->dense[h] = malloc(32 * widest * sizeof(float) + 64);
    }
    return file;
}

/* Y[n][out] = X[n][in] W^T + b (W: [out][in] as in the file), ReLU if asked. */
static void blas_dense(const layer *l, const float *x, int n, float *y, int relu) {
    for (int r = 0; r < n; r++) memcpy(y + (size_t)r * l->out, l->b, l->out * sizeof *y);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, l->out, l->in, 1.0f, x, l->in, l->w,
                l->in, 1.0f, y, l->out);
    if (relu)
        for (size_t i = 0; i < (size_t)n * l->out; i++) y[i] = y[i] > 0 ? y[i] : 0;
}

/* The BLAS forward pass over n inputs.  Activations are [channel][input][cell]
** so that one sgemm does a layer for the whole batch: im2col makes
** col[cin * 9][n * cells], and out[cout][n * cells] = W[cout][cin * 9] col. */
static void blas_forward(twin *t, const float *x, int n, float *values, float *policy) {
    int side = t->side;
    size_t cells = (size_t)side * side, ncells = (size_t)n * cells;
    const float *dense_in = x;
    if (t->planes) {
        /* the input planes, [input][plane][cell], gathered to [plane][input][cell] */
        float *cur = t->act[0];
        for (int c = 0; c < t->planes; c++)
            for (int r = 0; r < n; r++)
                memcpy(cur + ((size_t)c * n + r) * cells, x + (size_t)r * t->inputs + c * cells,
                       cells * sizeof *cur);
        int channels = t->planes;
        for (int k = 0; k < t->nconv; k++) {
            const layer *l = &t->conv[k];
            for (int c = 0; c < channels; c++)
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        float *row = t->col + ((size_t)c * 9 + (dy + 1) * 3 + dx + 1) * ncells;
                        for (int r = 0; r < n; r++) {
                            const float *in = cur + ((size_t)c * n + r) * cells;
                            float *dst = row + (size_t)r * cells;
                            for (int y = 0; y < side; y++)
                                for (int xx = 0; xx < side; xx++) {
                                    int sy = y + dy, sx = xx + dx;
                                    dst[y * side + xx] = sy < 0 || sy >= side || sx < 0 ||
                                                                 sx >= side
                                                             ? 0
                                                             : in[sy * side + sx];
                                }
                        }
                    }
            float *out = cur == t->act[0] ? t->act[1] : t->act[0];
            for (int o = 0; o < l->out; o++)
                for (size_t i = 0; i < ncells; i++) out[o * ncells + i] = l->b[o];
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, l->out, (int)ncells, l->in,
                        1.0f, l->w, l->in, t->col, (int)ncells, 1.0f, out, (int)ncells);
            for (size_t i = 0; i < (size_t)l->out * ncells; i++) out[i] = out[i] > 0 ? out[i] : 0;
            cur = out, channels = l->out;
        }
        /* the 1x1 squeeze: one more sgemm, into col */
        float *sq = t->col;
        for (int s = 0; s < t->squeeze; s++)
            for (size_t i = 0; i < ncells; i++) sq[s * ncells + i] = t->sq.b[s];
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, t->squeeze, (int)ncells, channels,
                    1.0f, t->sq.w, channels, cur, (int)ncells, 1.0f, sq, (int)ncells);
        /* the dense part's input, [input][squeezed planes, then the rest] */
        int width = t->hidden[0].in;
        size_t rest = (size_t)t->inputs - (size_t)t->planes * cells;
        float *d = t->dense[0];
        for (int r = 0; r < n; r++) {
            float *row = d + (size_t)r * width;
            for (int s = 0; s < t->squeeze; s++)
                for (size_t i = 0; i < cells; i++) {
                    float v = sq[((size_t)s * n + r) * cells + i];
                    row[s * cells + i] = v > 0 ? v : 0;
                }
            memcpy(row + t->squeeze * cells, x + (size_t)r * t->inputs + t->planes * cells,
                   rest * sizeof *row);
        }
        dense_in = d;
    }
    const float *cur = dense_in;
    for (int j = 0; j < t->nhidden; j++) {
        float *dst = cur == t->dense[0] ? t->dense[1] : t->dense[0];
        blas_dense(&t->hidden[j], cur, n, dst, 1);
        cur = dst;
    }
    blas_dense(&t->value, cur, n, values, 0);
    for (int r = 0; r < n; r++) {
        float *v = values + (size_t)r * t->players, top = -HUGE_VALF, sum = 0;
        for (int p = 0; p < t->players; p++) top = v[p] > top ? v[p] : top;
        for (int p = 0; p < t->players; p++) sum += v[p] = expf(v[p] - top);
        for (int p = 0; p < t->players; p++) v[p] /= sum;
    }
    if (t->policy) blas_dense(&t->pol, cur, n, policy, 0);
}

/* INPUTS tensors of kind, each from a different random game at a random
** move, from the seat to move (a chance node's tensor from seat 0). */
static float *random_tensors(const tafel_game *game, int kind, size_t size) {
    float *out = malloc(INPUTS * size * sizeof *out);
    tafel_action *scratch = malloc(tafel_game_max_actions(game) * sizeof *scratch);
    uint64_t rng = tafel_rng_seed(2026);
    for (int i = 0; i < INPUTS; i++) {
        tafel_state *s = tafel_state_new(game);
        int steps = (int)tafel_rng_below(&rng, 200);
        for (int k = 0; k < steps && tafel_state_current(s) != TAFEL_TERMINAL; k++)
            tafel_state_play_random(s, &rng, scratch, tafel_game_max_actions(game), NULL);
        int seat = tafel_state_current(s) >= 0 ? tafel_state_current(s) : 0;
        int rc = kind == TAFEL_OBSERVATION
                     ? tafel_state_observation_tensor(s, seat, out + i * size, size, NULL)
                     : tafel_state_information_state_tensor(s, seat, out + i * size, size, NULL);
        if (rc) abort();
        tafel_state_free(s);
    }
    free(scratch);
    return out;
}

/* The largest difference of a and b, over the larger of 1 and b's largest. */
static double difference(const float *a, const float *b, size_t n) {
    double most = 1, diff = 0;
    for (size_t i = 0; i < n; i++) most = fabs(b[i]) > most ? fabs(b[i]) : most;
    for (size_t i = 0; i < n; i++) diff = fabs(a[i] - b[i]) > diff ? fabs(a[i] - b[i]) : diff;
    return diff / most;
}

static int bench(const shape *s) {
    tafel_game *game;
    if (tafel_game_load(s->game, &game, NULL)) return 1;
    twin t;
    buf file = make_net(s, game, &t);
    tafel_net *net;
    tafel_error err;
    if (tafel_net_load(game, file.p, file.n, &net, &err)) {
        fprintf(stderr, "nn-blas-bench: %s\n", err.message);
        return 1;
    }
    size_t size = (size_t)t.inputs;
    float *x = random_tensors(game, s->kind, size);
    size_t zeros = 0;
    for (size_t i = 0; i < INPUTS * size; i++) zeros += x[i] == 0;
    float *v_loop = malloc(INPUTS * t.players * sizeof(float));
    float *v_blas = malloc(INPUTS * t.players * sizeof(float));
    float *p_loop = t.policy ? malloc((size_t)INPUTS * t.policy * sizeof(float)) : NULL;
    float *p_blas = t.policy ? malloc((size_t)INPUTS * t.policy * sizeof(float)) : NULL;
    printf("%s: %zu inputs (%.0f%% zero), policy %d, %.1f MB of float32 weights\n", s->label,
           size, 100.0 * zeros / (INPUTS * size), t.policy, (file.n - 100) / 1e6);
    static const int batches[] = {1, 8, 32};
    int bad = 0;
    for (int bi = 0; bi < 3; bi++) {
        int n = batches[bi];
        double loop[RUNS], blas[RUNS];
        for (int run = 0; run < RUNS; run++) {
            double t0 = now();
            for (int i = 0; i < INPUTS; i += n)
                tafel_net_forward(net, x + i * size, n, v_loop + i * t.players,
                                  p_loop ? p_loop + (size_t)i * t.policy : NULL, NULL);
            double t1 = now();
            for (int i = 0; i < INPUTS; i += n)
                blas_forward(&t, x + i * size, n, v_blas + i * t.players,
                             p_blas ? p_blas + (size_t)i * t.policy : NULL);
            double t2 = now();
            loop[run] = (t1 - t0) / INPUTS * 1e6;
            blas[run] = (t2 - t1) / INPUTS * 1e6;
        }
        qsort(loop, RUNS, sizeof *loop, cmp_double);
        qsort(blas, RUNS, sizeof *blas, cmp_double);
        double dv = difference(v_blas, v_loop, (size_t)INPUTS * t.players);
        double dp = t.policy ? difference(p_blas, p_loop, (size_t)INPUTS * t.policy) : 0;
        printf("  batch %2d   loop %9.1f us   openblas %9.1f us   (differ by %.1e, %.1e)\n", n,
               loop[RUNS / 2], blas[RUNS / 2], dv, dp);
        bad |= dv > 1e-4 || dp > 1e-4;
    }
    if (bad) fprintf(stderr, "nn-blas-bench: %s: the two disagree\n", s->label);
    tafel_net_free(net);
    tafel_game_free(game);
    free(x), free(v_loop), free(v_blas), free(p_loop), free(p_blas), free(file.p);
    return bad;
}

int main(void) {
    openblas_set_num_threads(1);
    static const shape shapes[] = {
        {"carcassonne 2p (convs 16,16, squeeze 4, hidden 128; value only)", "carcassonne",
         TAFEL_INFORMATION_STATE, 18, 27, 4, 0, 2, {16, 16}, 1, {128}},
        {"cardcassonne 2p (hidden 256,128; value and policy)", "cardcassonne",
         TAFEL_INFORMATION_STATE, 0, 0, 0, 1, 0, {0}, 2, {256, 128}},
        {"catan_cards 2p (hidden 256,128; value and policy)", "catan_cards",
         TAFEL_INFORMATION_STATE, 0, 0, 0, 1, 0, {0}, 2, {256, 128}},
    };
    printf("us per input, median of %d passes over %d tensors from random play; one thread\n",
           RUNS, INPUTS);
    int bad = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) bad |= bench(&shapes[i]);
    return bad;
}
