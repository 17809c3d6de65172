/*
** net.c -- nets in C (tafel.h, "Nets"; the file format: docs/nets.md).
**
** One shape of net serves every game: optional 3x3 convolutions over the
** board planes at the front of the tensor (Carcassonne's), a 1x1 squeeze,
** then the rest of the tensor joins and dense layers follow; a value head
** (a softmax over the seats) and an optional policy head (logits over the
** action space).  ReLU after every layer but the heads.  nets/train.py
** builds the same net in PyTorch and writes it in this format.
**
** Speed without a BLAS: a dense layer keeps its weights transposed, input
** by output, so that each input adds its row to the outputs -- a loop over
** contiguous floats that the compiler vectorises without reordering any sum
** -- and an input of 0, most of a tafel tensor, costs nothing.  A
** convolution adds each weight's shifted plane the same way, over planes
** with a border of zeros so that each shift is one long run, and skips an
** input plane of zeros.  docs/nets.md ("Speed") gives the measurements
** against OpenBLAS that chose this (bench/nn_blas.c).
*/
#include "nn.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "TAFELNN\001"
#define VERSION 1
/* How a weight is stored: float32, or float16 (half the file; the net is
** then exactly the float16-rounded one, in C as in PyTorch). */
#define F32 4
#define F16 2
#define MAX_CONV 8
#define MAX_HIDDEN 8
#define NAME_BYTES 32

/* A dense layer: w[in][out] (transposed from the file's [out][in]). */
typedef struct dense {
    int in, out;
    float *w, *b;
} dense;

/* A 3x3 convolution, padding 1: w[cout][cin][3][3] as in the file. */
typedef struct conv {
    int cin, cout;
    float *w, *b;
} conv;

struct tafel_net {
    int kind, inputs, planes, board, squeeze, players, policy, nconv, nhidden;
    char game[NAME_BYTES];
    conv convs[MAX_CONV];
    dense squeeze_layer; /* the 1x1 squeeze: a dense layer over a cell's channels */
    dense hidden[MAX_HIDDEN], value, policy_head;
    float *weights; /* every layer's floats, one block */
    float *scratch; /* activations of one input: two halves, in and out */
    float *pad;     /* run_conv's padded input planes and sums (conv_scratch) */
    size_t half;
};

/* Little-endian int32s and floats from the file, with bounds. */
typedef struct reader {
    const unsigned char *p, *end;
    int width; /* F32 or F16 */
} reader;

/* An IEEE half to float: exact, subnormals included. */
static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | man << 13;
    } else if (exp) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else {
        float f = (float)man * (1.0f / 16777216.0f); /* man * 2^-24 */
        return sign ? -f : f;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static int read_i32(reader *r, int *out) {
    if (r->end - r->p < 4) return 0;
    uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
                 (uint32_t)r->p[3] << 24;
    r->p += 4;
    *out = (int)(int32_t)v;
    return 1;
}

static int read_floats(reader *r, float *out, size_t n) {
    if ((size_t)(r->end - r->p) / (size_t)r->width < n) return 0;
    for (size_t i = 0; i < n; i++, r->p += r->width) {
        if (r->width == F16) {
            out[i] = half_to_float((uint16_t)(r->p[0] | r->p[1] << 8));
            continue;
        }
        uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
                     (uint32_t)r->p[3] << 24;
        memcpy(&out[i], &v, 4);
    }
    return 1;
}

/* A dense layer's floats from the file ([out][in], then [out]), transposed. */
static int read_dense(reader *r, dense *d, float **block) {
    d->w = *block;
    d->b = *block + (size_t)d->in * d->out;
    *block = d->b + d->out;
    for (int o = 0; o < d->out; o++)
        for (int i = 0; i < d->in; i++)
            if (!read_floats(r, &d->w[(size_t)i * d->out + o], 1)) return 0;
    return read_floats(r, d->b, (size_t)d->out);
}

static int read_conv(reader *r, conv *c, float **block) {
    size_t n = (size_t)c->cout * c->cin * 9;
    c->w = *block;
    c->b = *block + n;
    *block = c->b + c->cout;
    return read_floats(r, c->w, n) && read_floats(r, c->b, (size_t)c->cout);
}

int tf_net_check(const tafel_net *net, const tafel_game *game, tafel_error *err) {
    int space = tafel_game_action_space_size(game);
    size_t tensor = tafel_game_tensor_size(game, net->kind);
    if (strcmp(net->game, tafel_game_name(game)) || net->players != tafel_game_players(game) ||
        (size_t)net->inputs != tensor || (net->policy && net->policy != space))
        return tf_error(err, TAFEL_EGAME,
                        "net: made for %s, %d players, %d inputs, policy %d; the game is "
                        "%s, %d players, %zu inputs, action space %d",
                        net->game, net->players, net->inputs, net->policy,
                        tafel_game_name(game), tafel_game_players(game), tensor, space);
    return TAFEL_OK;
}

void tafel_net_free(tafel_net *net) {
    if (!net) return;
    free(net->weights);
    free(net->scratch);
    free(net->pad);
    free(net);
}

/* The layers' sizes from the header: their float count, or 0 when the
** header does not add up. */
static size_t plan(tafel_net *net, const int *conv_channels, const int *hidden) {
    size_t floats = 0;
    int channels = net->planes, cells = net->board * net->board;
    for (int k = 0; k < net->nconv; k++) {
        net->convs[k] = (conv){channels, conv_channels[k], NULL, NULL};
        floats += (size_t)channels * conv_channels[k] * 9 + conv_channels[k];
        channels = conv_channels[k];
    }
    int width = net->inputs;
    if (net->planes) {
        net->squeeze_layer = (dense){channels, net->squeeze, NULL, NULL};
        floats += (size_t)channels * net->squeeze + net->squeeze;
        width = net->squeeze * cells + net->inputs - net->planes * cells;
    }
    for (int j = 0; j < net->nhidden; j++) {
        net->hidden[j] = (dense){width, hidden[j], NULL, NULL};
        floats += (size_t)width * hidden[j] + hidden[j];
        width = hidden[j];
    }
    net->value = (dense){width, net->players, NULL, NULL};
    floats += (size_t)width * net->players + net->players;
    net->policy_head = (dense){width, net->policy, NULL, NULL};
    floats += (size_t)width * net->policy + net->policy;
    return floats;
}

/* run_conv's scratch, in floats: the padded input planes and four wide
** output planes (a row of side + 2 floats each). */
static size_t conv_scratch(const tafel_net *net) {
    size_t most = 0, stride = (size_t)net->board + 2;
    for (int k = 0; k < net->nconv; k++) {
        size_t n = (size_t)net->convs[k].cin * stride * stride + 4 * stride * net->board;
        most = n > most ? n : most;
    }
    return most;
}

/* The largest activation of one input, in floats. */
static size_t activations(const tafel_net *net) {
    size_t most = (size_t)net->value.in, cells = (size_t)net->board * net->board;
    for (int k = 0; k < net->nconv; k++)
        if ((size_t)net->convs[k].cout * cells > most) most = (size_t)net->convs[k].cout * cells;
    for (int j = 0; j < net->nhidden; j++) {
        if ((size_t)net->hidden[j].in > most) most = (size_t)net->hidden[j].in;
        if ((size_t)net->hidden[j].out > most) most = (size_t)net->hidden[j].out;
    }
    return most;
}

int tafel_net_load(const tafel_game *game, const void *bytes, size_t size, tafel_net **out,
                   tafel_error *err) {
    if (out) *out = NULL;
    if (!game || !bytes || !out) return tf_error(err, TAFEL_EINVAL, "net: no game, bytes or out");
    reader r = {bytes, (const unsigned char *)bytes + size, F32};
    if (size < 8 || memcmp(bytes, MAGIC, 8))
        return tf_error(err, TAFEL_EPARSE, "net: not a tafel weights file (docs/nets.md)");
    r.p += 8;
    tafel_net *net = calloc(1, sizeof *net);
    if (!net) return tf_error(err, TAFEL_ENOMEM, "out of memory");
    int version = 0, conv_channels[MAX_CONV], hidden[MAX_HIDDEN];
    int ok = read_i32(&r, &version) && read_i32(&r, &r.width) && read_i32(&r, &net->kind) && read_i32(&r, &net->inputs) &&
             read_i32(&r, &net->planes) && read_i32(&r, &net->board) &&
             read_i32(&r, &net->squeeze) && read_i32(&r, &net->players) &&
             read_i32(&r, &net->policy) && read_i32(&r, &net->nconv) &&
             read_i32(&r, &net->nhidden);
    int rc = TAFEL_OK;
    if (!ok) rc = tf_error(err, TAFEL_EPARSE, "net: the header is cut short");
    else if (version != VERSION)
        rc = tf_error(err, TAFEL_EPARSE, "net: format version %d (this build reads %d)",
                      version, VERSION);
    else if (r.width != F32 && r.width != F16)
        rc = tf_error(err, TAFEL_EPARSE, "net: %d bytes a weight (4 or 2)", r.width);
    else if (net->nconv < 0 || net->nconv > MAX_CONV || net->nhidden < 0 ||
             net->nhidden > MAX_HIDDEN || net->inputs < 1 || net->players < 1 ||
             net->players > TAFEL_MAX_PLAYERS || net->policy < 0 || net->planes < 0 ||
             net->board < 0 || net->board > 64 || net->squeeze < 0 || net->squeeze > 1024 ||
             net->planes > 1024 ||
             (net->planes && (net->squeeze < 1 || net->board < 1)) ||
             (long)net->planes * net->board * net->board > net->inputs ||
             (net->kind != TAFEL_OBSERVATION && net->kind != TAFEL_INFORMATION_STATE))
        rc = tf_error(err, TAFEL_EPARSE, "net: a header out of range");
    for (int k = 0; !rc && k < net->nconv; k++)
        if (!read_i32(&r, &conv_channels[k]) || conv_channels[k] < 1 || conv_channels[k] > 1024)
            rc = tf_error(err, TAFEL_EPARSE, "net: a convolution's channels out of range");
    for (int j = 0; !rc && j < net->nhidden; j++)
        if (!read_i32(&r, &hidden[j]) || hidden[j] < 1 || hidden[j] > 1 << 16)
            rc = tf_error(err, TAFEL_EPARSE, "net: a hidden layer's width out of range");
    if (!rc && r.end - r.p < NAME_BYTES) rc = tf_error(err, TAFEL_EPARSE, "net: cut short");
    if (!rc) {
        memcpy(net->game, r.p, NAME_BYTES);
        net->game[NAME_BYTES - 1] = 0;
        r.p += NAME_BYTES;
        rc = tf_net_check(net, game, err);
    }
    size_t floats = rc ? 0 : plan(net, conv_channels, hidden);
    if (!rc && (size_t)(r.end - r.p) != floats * (size_t)r.width)
        rc = tf_error(err, TAFEL_EPARSE, "net: %zu bytes of weights where the header says %zu",
                      (size_t)(r.end - r.p), floats * (size_t)r.width);
    if (!rc) {
        net->weights = malloc(floats * sizeof *net->weights);
        net->half = activations(net);
        net->scratch = malloc(2 * net->half * sizeof *net->scratch);
        net->pad = net->nconv ? malloc(conv_scratch(net) * sizeof *net->pad) : NULL;
        if (!net->weights || !net->scratch || (net->nconv && !net->pad))
            rc = tf_error(err, TAFEL_ENOMEM, "out of memory");
    }
    if (!rc) {
        float *block = net->weights;
        for (int k = 0; ok && k < net->nconv; k++) ok = read_conv(&r, &net->convs[k], &block);
        if (ok && net->planes) ok = read_dense(&r, &net->squeeze_layer, &block);
        for (int j = 0; ok && j < net->nhidden; j++) ok = read_dense(&r, &net->hidden[j], &block);
        ok = ok && read_dense(&r, &net->value, &block);
        ok = ok && read_dense(&r, &net->policy_head, &block);
        if (!ok) rc = tf_error(err, TAFEL_EPARSE, "net: the weights are cut short");
    }
    if (rc) {
        tafel_net_free(net);
        return rc;
    }
    *out = net;
    return TAFEL_OK;
}

int tafel_net_read(const tafel_game *game, const char *path, tafel_net **out, tafel_error *err) {
    if (out) *out = NULL;
    if (!path) return tf_error(err, TAFEL_EINVAL, "net: no path");
    FILE *f = fopen(path, "rb");
    if (!f) return tf_error(err, TAFEL_EIO, "net: cannot open %s", path);
    size_t cap = 1 << 16, size = 0;
    unsigned char *bytes = malloc(cap);
    int rc = bytes ? TAFEL_OK : TAFEL_ENOMEM;
    while (!rc) {
        if (size == cap) {
            unsigned char *p = cap < (size_t)1 << 30 ? realloc(bytes, cap * 2) : NULL;
            if (!p) {
                rc = TAFEL_ENOMEM;
                break;
            }
            bytes = p, cap *= 2;
        }
        size_t got = fread(bytes + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    if (!rc && ferror(f)) rc = tf_error(err, TAFEL_EIO, "net: cannot read %s", path);
    else if (rc) tf_error(err, rc, "out of memory");
    fclose(f);
    if (!rc) rc = tafel_net_load(game, bytes, size, out, err);
    free(bytes);
    return rc;
}

int tafel_net_kind(const tafel_net *net) { return net->kind; }
int tafel_net_has_policy(const tafel_net *net) { return net->policy > 0; }

/* out = b + x w (x: in floats; w: [in][out]); zero inputs skipped. */
static void run_dense(const dense *d, const float *x, float *out, int relu) {
    memcpy(out, d->b, (size_t)d->out * sizeof *out);
    for (int i = 0; i < d->in; i++) {
        float v = x[i];
        if (v == 0) continue;
        const float *row = d->w + (size_t)i * d->out;
        for (int o = 0; o < d->out; o++) out[o] += v * row[o];
    }
    if (relu)
        for (int o = 0; o < d->out; o++) out[o] = out[o] > 0 ? out[o] : 0;
}

/* out[j] += w * in[j], j < n, for up to four output planes at once (one
** load of the input for each): the inner loop of run_conv. */
static void conv_taps(float *const *dst, const float *w, size_t wstride, int planes,
                      const float *in, int stride, size_t n) {
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++) {
            const float *src = in + dy * stride + dx;
            int t = dy * 3 + dx;
            if (planes == 4) {
                float w0 = w[t], w1 = w[wstride + t], w2 = w[2 * wstride + t],
                      w3 = w[3 * wstride + t];
                float *d0 = dst[0], *d1 = dst[1], *d2 = dst[2], *d3 = dst[3];
                for (size_t j = 0; j < n; j++) {
                    float v = src[j];
                    d0[j] += w0 * v, d1[j] += w1 * v, d2[j] += w2 * v, d3[j] += w3 * v;
                }
            } else {
                for (int p = 0; p < planes; p++) {
                    float wv = w[p * wstride + t], *d = dst[p];
                    for (size_t j = 0; j < n; j++) d[j] += wv * src[j];
                }
            }
        }
}

/* A 3x3 convolution with padding 1 and ReLU over side x side planes.  The
** input planes are copied into pad with a border of zeros, stride side + 2,
** and the output is summed in that stride too ("wide" rows, two cells of
** each row wasted): then each weight adds one long shifted run of the input
** to its output plane, with no edge cases, and four output planes share
** each load.  An input plane of zeros (most of Carcassonne's) is skipped.
** Every output adds its bias and then the same products in the same order
** as a direct loop would (the border adds only zeros), so the result does
** not depend on this arrangement.  pad holds conv_scratch floats. */
static void run_conv(const conv *c, int side, const float *x, float *out, float *pad) {
    int stride = side + 2;
    size_t cells = (size_t)side * side, padded = (size_t)stride * stride;
    size_t wide = (size_t)side * stride - 2; /* the last row's two wasted cells left off */
    float *acc = pad + (size_t)c->cin * padded;
    unsigned char used[1024];
    memset(pad, 0, (size_t)c->cin * padded * sizeof *pad);
    for (int i = 0; i < c->cin; i++) {
        const float *in = x + (size_t)i * cells;
        float *dst = pad + (size_t)i * padded + stride + 1;
        int any = 0;
        for (int y = 0; y < side; y++)
            for (int xx = 0; xx < side; xx++) {
                float v = in[y * side + xx];
                dst[(size_t)y * stride + xx] = v;
                any |= v != 0;
            }
        used[i] = (unsigned char)any;
    }
    for (int o = 0; o < c->cout; o += 4) {
        int planes = c->cout - o < 4 ? c->cout - o : 4;
        float *dst[4];
        for (int p = 0; p < planes; p++) {
            dst[p] = acc + (size_t)p * stride * side;
            for (size_t j = 0; j < wide; j++) dst[p][j] = c->b[o + p];
        }
        for (int i = 0; i < c->cin; i++)
            if (used[i])
                conv_taps(dst, c->w + ((size_t)o * c->cin + i) * 9, (size_t)c->cin * 9, planes,
                          pad + (size_t)i * padded, stride, wide);
        for (int p = 0; p < planes; p++) {
            float *plane = out + (size_t)(o + p) * cells;
            for (int y = 0; y < side; y++)
                for (int xx = 0; xx < side; xx++) {
                    float v = dst[p][(size_t)y * stride + xx];
                    plane[y * side + xx] = v > 0 ? v : 0;
                }
        }
    }
}

/* out[k] = b[k] + x w[.][k] for the n indices k of wanted: columns of w. */
static void run_dense_columns(const dense *d, const float *x, float *out, const int *wanted,
                              int n) {
    for (int j = 0; j < n; j++) {
        int k = wanted[j];
        float sum = d->b[k];
        for (int i = 0; i < d->in; i++) sum += x[i] * d->w[(size_t)i * d->out + k];
        out[k] = sum;
    }
}

/* One input: the value softmax into values, the logits into policy (with
** wanted, only the nwanted it lists). */
static void forward_one(tafel_net *net, const float *x, float *values, float *policy,
                        const int *wanted, int nwanted) {
    float *a = net->scratch, *b = net->scratch + net->half;
    const float *cur = x;
    if (net->planes) {
        int side = net->board;
        size_t cells = (size_t)side * side, rest = (size_t)net->inputs - net->planes * cells;
        int channels = net->planes;
        for (int k = 0; k < net->nconv; k++) {
            float *dst = cur == a ? b : a;
            run_conv(&net->convs[k], side, cur, dst, net->pad);
            cur = dst, channels = net->convs[k].cout;
        }
        /* the 1x1 squeeze, cell by cell, into the dense layers' input: the
        ** squeezed planes channel-major, as PyTorch flattens them */
        float *dst = cur == a ? b : a, pixel[1024], squeezed[1024];
        for (size_t k = 0; k < cells; k++) {
            for (int ch = 0; ch < channels; ch++) pixel[ch] = cur[(size_t)ch * cells + k];
            run_dense(&net->squeeze_layer, pixel, squeezed, 1);
            for (int s = 0; s < net->squeeze; s++) dst[(size_t)s * cells + k] = squeezed[s];
        }
        memcpy(dst + (size_t)net->squeeze * cells, x + net->planes * cells, rest * sizeof *x);
        cur = dst;
    }
    for (int j = 0; j < net->nhidden; j++) {
        float *dst = cur == a ? b : a;
        run_dense(&net->hidden[j], cur, dst, 1);
        cur = dst;
    }
    float v[TAFEL_MAX_PLAYERS], top = -HUGE_VALF, sum = 0;
    run_dense(&net->value, cur, v, 0);
    for (int p = 0; p < net->players; p++) top = v[p] > top ? v[p] : top;
    for (int p = 0; p < net->players; p++) sum += v[p] = expf(v[p] - top);
    for (int p = 0; p < net->players; p++) values[p] = v[p] / sum;
    if (!policy || !net->policy) return;
    if (wanted) run_dense_columns(&net->policy_head, cur, policy, wanted, nwanted);
    else run_dense(&net->policy_head, cur, policy, 0);
}

int tafel_net_forward(tafel_net *net, const float *inputs, int n, float *values, float *policy,
                      tafel_error *err) {
    if (!net || !inputs || !values || n < 0)
        return tf_error(err, TAFEL_EINVAL, "net: no net, inputs or values");
    if (policy && !net->policy) return tf_error(err, TAFEL_EINVAL, "net: it has no policy");
    for (int i = 0; i < n; i++)
        forward_one(net, inputs + (size_t)i * net->inputs, values + (size_t)i * net->players,
                    policy ? policy + (size_t)i * net->policy : NULL, NULL, 0);
    return TAFEL_OK;
}

int tf_net_forward_some(tafel_net *net, const float *inputs, int n, float *values,
                        float *policy, const int *wanted, const int *nwanted, size_t stride,
                        tafel_error *err) {
    if (!net || !inputs || !values || !policy || !wanted || !nwanted || n < 0)
        return tf_error(err, TAFEL_EINVAL, "net: no net, inputs, values, policy or wanted");
    if (!net->policy) return tf_error(err, TAFEL_EINVAL, "net: it has no policy");
    for (int i = 0; i < n; i++) {
        const int *w = wanted + (size_t)i * stride;
        for (int j = 0; j < nwanted[i]; j++)
            if (w[j] < 0 || w[j] >= net->policy)
                return tf_error(err, TAFEL_EINVAL, "net: no policy index %d (0..%d)", w[j],
                                net->policy - 1);
        forward_one(net, inputs + (size_t)i * net->inputs, values + (size_t)i * net->players,
                    policy + (size_t)i * net->policy, w, nwanted[i]);
    }
    return TAFEL_OK;
}
