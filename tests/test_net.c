/*
** test_net.c -- nets in C (tafel.h "Nets", src/nn/net.c, docs/nets.md's
** weights format): a net written here byte by byte, with outputs worked
** out by hand, in float32 and float16; every refusal of the loader with
** its message; nets as bots' evaluators; the level expert; and the C
** forward pass against PyTorch's outputs recorded in tests/nets/.
**
** The worked net is Cardcassonne's (2 players): the loader checks the
** game, so its inputs are that game's observation tensor, but only the
** first two count.  One hidden layer of two units,
**     h0 = relu(x0 + 2 x1 + 0.5),   h1 = relu(-x0 + 0.25),
** value logits (h0, h1) and policy logits
**     l0 = h0,  l1 = -2 h1 + 0.5,  l2 = h0 + h1 - 1,  every other 0.125,
** so that for x = (1, 0.5): h = (2.5, 0), values (s(2.5), 1 - s(2.5))
** with s the logistic function, logits (2.5, 0.5, 1.5, 0.125...).  Every
** weight is exactly a float16, so the float16 file is the same net.
*/
#include "helpers.h"
#include "nn/nn.h"

#include <math.h>

#define GAME "cardcassonne(players=2)"

/* The header's fields as a test sets them (docs/nets.md order). */
typedef struct header {
    int version, width, kind, inputs, planes, board, squeeze, players, policy, nconv, nhidden;
    int conv[8], hidden[8];
    const char *game;
} header;

/* A weights file being written. */
typedef struct file {
    unsigned char *bytes;
    size_t size, cap;
} file;

static void put(file *f, const void *p, size_t n) {
    if (f->size + n > f->cap) {
        f->cap = (f->size + n) * 2;
        f->bytes = realloc(f->bytes, f->cap);
        assert_non_null(f->bytes);
    }
    memcpy(f->bytes + f->size, p, n);
    f->size += n;
}

static void put_i32(file *f, int v) {
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {u & 0xff, u >> 8 & 0xff, u >> 16 & 0xff, u >> 24 & 0xff};
    put(f, b, 4);
}

/* A float as IEEE half: only values a half holds exactly (zero and
** normal numbers with 10 bits of mantissa), which the worked net uses. */
static uint16_t to_half(float v) {
    if (v == 0) return 0;
    uint32_t bits;
    memcpy(&bits, &v, 4);
    uint32_t sign = bits >> 31, exp = bits >> 23 & 0xff, man = bits & 0x7fffff;
    assert_true(exp >= 113 && exp <= 142); /* a normal half */
    assert_int_equal(man & 0x1fff, 0);     /* no bits lost */
    return (uint16_t)(sign << 15 | (exp - 112) << 10 | man >> 13);
}

static void put_floats(file *f, int width, const float *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (width == 2) {
            uint16_t h = to_half(v[i]);
            unsigned char b[2] = {h & 0xff, h >> 8};
            put(f, b, 2);
        } else {
            uint32_t u;
            memcpy(&u, &v[i], 4);
            put_i32(f, (int)u);
        }
    }
}

static void put_header(file *f, const header *h) {
    put(f, "TAFELNN\001", 8);
    int fields[] = {h->version, h->width,   h->kind,    h->inputs, h->planes,  h->board,
                    h->squeeze, h->players, h->policy, h->nconv,  h->nhidden};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) put_i32(f, fields[i]);
    /* a header out of range (more layers than the loader takes) lists no more
    ** than the fixture holds: the loader refuses it before reading them */
    int nconv = h->nconv < 8 ? h->nconv : 8, nhidden = h->nhidden < 8 ? h->nhidden : 8;
    for (int k = 0; k < nconv; k++) put_i32(f, h->conv[k]);
    for (int j = 0; j < nhidden; j++) put_i32(f, h->hidden[j]);
    char name[32] = {0};
    snprintf(name, sizeof name, "%s", h->game);
    put(f, name, sizeof name);
}

/* The game, its sizes, and the worked net's header. */
typedef struct fixture {
    tafel_game *game;
    int inputs, space;
    header h;
} fixture;

static int setup(void **state) {
    fixture *fx = calloc(1, sizeof *fx);
    fx->game = h_game(GAME);
    fx->inputs = (int)tafel_game_tensor_size(fx->game, TAFEL_OBSERVATION);
    fx->space = tafel_game_action_space_size(fx->game);
    assert_true(fx->inputs >= 2 && fx->space >= 4);
    fx->h = (header){.version = 1, .width = 4, .kind = TAFEL_OBSERVATION, .inputs = fx->inputs,
                     .players = 2, .policy = fx->space, .nhidden = 1, .hidden = {2},
                     .game = "cardcassonne"};
    *state = fx;
    return 0;
}

static int teardown(void **state) {
    fixture *fx = *state;
    tafel_game_free(fx->game);
    free(fx);
    return 0;
}

/* The worked net (the file's comment) with header h; *floats_at is where
** its weights begin. */
static file worked_net(const fixture *fx, const header *h, size_t *floats_at) {
    file f = {0};
    put_header(&f, h);
    if (floats_at) *floats_at = f.size;
    int n = fx->inputs, space = fx->space;
    float *w = calloc((size_t)2 * n, sizeof *w); /* hidden [2][inputs] */
    w[0] = 1, w[1] = 2, w[n] = -1;
    put_floats(&f, h->width, w, (size_t)2 * n);
    free(w);
    put_floats(&f, h->width, (float[]){0.5f, 0.25f}, 2);
    put_floats(&f, h->width, (float[]){1, 0, 0, 1, 0, 0}, 6); /* value [2][2], bias */
    float *p = calloc((size_t)space * 2 + space, sizeof *p); /* policy [space][2], bias */
    p[0] = 1;                 /* l0 = h0 */
    p[3] = -2;                /* l1 = -2 h1 ... */
    p[4] = 1, p[5] = 1;       /* l2 = h0 + h1 ... */
    float *bias = p + (size_t)space * 2;
    for (int k = 0; k < space; k++) bias[k] = 0.125f;
    bias[0] = 0, bias[1] = 0.5f, bias[2] = -1;
    put_floats(&f, h->width, p, (size_t)space * 3);
    free(p);
    return f;
}

static tafel_net *load(const fixture *fx, const file *f) {
    tafel_net *net = NULL;
    tafel_error err = {0};
    int rc = tafel_net_load(fx->game, f->bytes, f->size, &net, &err);
    if (rc) fail_msg("loading the net: %s", err.message);
    return net;
}

/* The worked example's three inputs and their outputs, computed by hand. */
static void check_worked(const fixture *fx, tafel_net *net) {
    int n = fx->inputs, space = fx->space;
    float *x = calloc((size_t)3 * n, sizeof *x);
    x[0] = 1, x[1] = 0.5f;   /* h = (2.5, 0) */
    x[2 * n] = -3;           /* h = (0, 3.25); the first input all zero: h = (0.5, 0.25) */
    float values[6], *logits = calloc((size_t)3 * space, sizeof *logits);
    tafel_error err = {0};
    assert_int_equal(tafel_net_forward(net, x, 3, values, logits, &err), TAFEL_OK);
    /* s(2.5), s(0.25), s(-3.25), s the logistic function */
    const double want_v[3] = {0.9241418199787566, 0.5621765008857981, 0.03732688734412946};
    const float want_l[3][4] = {{2.5f, 0.5f, 1.5f, 0.125f},
                                {0.5f, 0.0f, -0.25f, 0.125f},
                                {0.0f, -6.0f, 2.25f, 0.125f}};
    for (int i = 0; i < 3; i++) {
        assert_float_equal(values[2 * i], want_v[i], 1e-6);
        assert_float_equal(values[2 * i + 1], 1 - want_v[i], 1e-6);
        const float *l = logits + (size_t)i * space;
        for (int k = 0; k < 3; k++) assert_float_equal(l[k], want_l[i][k], 1e-6);
        for (int k = 3; k < space; k++) assert_float_equal(l[k], want_l[i][3], 1e-6);
    }
    /* values alone, without the policy */
    float again[6];
    assert_int_equal(tafel_net_forward(net, x, 3, again, NULL, &err), TAFEL_OK);
    assert_memory_equal(again, values, sizeof values);
    free(logits);
    free(x);
}

static void worked_example_in_float32(void **state) {
    fixture *fx = *state;
    file f = worked_net(fx, &fx->h, NULL);
    tafel_net *net = load(fx, &f);
    assert_int_equal(tafel_net_kind(net), TAFEL_OBSERVATION);
    assert_true(tafel_net_has_policy(net));
    check_worked(fx, net);
    tafel_net_free(net);
    free(f.bytes);
}

static void worked_example_in_float16(void **state) {
    fixture *fx = *state;
    header h = fx->h;
    h.width = 2;
    file f32 = worked_net(fx, &fx->h, NULL), f = worked_net(fx, &h, NULL);
    /* half the weights' bytes */
    size_t head = 8 + 4 * 12 + 32;
    assert_int_equal(f.size - head, (f32.size - head) / 2);
    tafel_net *net = load(fx, &f);
    check_worked(fx, net);
    tafel_net_free(net);
    free(f.bytes);
    free(f32.bytes);
}

/* loading f gives code and a message containing want */
static void refused(const fixture *fx, const void *bytes, size_t size, int code,
                    const char *want) {
    tafel_net *net = (tafel_net *)(uintptr_t)1;
    tafel_error err = {0};
    int rc = tafel_net_load(fx->game, bytes, size, &net, &err);
    if (rc != code || !strstr(err.message, want))
        fail_msg("expected %d '%s', got %d '%s'", code, want, rc, err.message);
    assert_null(net);
}

static void refused_header(const fixture *fx, header h, int code, const char *want) {
    file f = worked_net(fx, &h, NULL);
    refused(fx, f.bytes, f.size, code, want);
    free(f.bytes);
}

static void bad_files_refused_with_their_reason(void **state) {
    fixture *fx = *state;
    size_t at;
    file f = worked_net(fx, &fx->h, &at);
    unsigned char *copy = malloc(f.size + 8);
    memcpy(copy, f.bytes, f.size);
    copy[0] = 'X';
    refused(fx, copy, f.size, TAFEL_EPARSE, "not a tafel weights file");
    refused(fx, f.bytes, 5, TAFEL_EPARSE, "not a tafel weights file");
    refused(fx, f.bytes, 8 + 4 * 5, TAFEL_EPARSE, "the header is cut short");
    refused(fx, f.bytes, at - 10, TAFEL_EPARSE, "cut short");
    refused(fx, f.bytes, f.size - 4, TAFEL_EPARSE, "bytes of weights where the header says");
    memcpy(copy, f.bytes, f.size);
    memset(copy + f.size, 0, 4);
    refused(fx, copy, f.size + 4, TAFEL_EPARSE, "bytes of weights where the header says");
    char want[96];
    snprintf(want, sizeof want, "%zu bytes of weights where the header says %zu",
             f.size - at - 4, f.size - at);
    refused(fx, f.bytes, f.size - 4, TAFEL_EPARSE, want);
    free(copy);
    free(f.bytes);

    header h = fx->h;
    h.version = 2;
    refused_header(fx, h, TAFEL_EPARSE, "format version 2 (this build reads 1)");
    h = fx->h, h.width = 3;
    refused_header(fx, h, TAFEL_EPARSE, "3 bytes a weight (4 or 2)");
    h = fx->h, h.game = "catan_cards";
    refused_header(fx, h, TAFEL_EGAME, "made for catan_cards");
    h = fx->h, h.players = 3;
    refused_header(fx, h, TAFEL_EGAME, "cardcassonne, 3 players");
    h = fx->h, h.inputs = fx->inputs + 1;
    snprintf(want, sizeof want, "%d inputs", fx->inputs + 1);
    refused_header(fx, h, TAFEL_EGAME, want);
    h = fx->h, h.policy = fx->space - 1;
    snprintf(want, sizeof want, "action space %d", fx->space);
    refused_header(fx, h, TAFEL_EGAME, want);
    h = fx->h, h.kind = 7;
    refused_header(fx, h, TAFEL_EPARSE, "a header out of range");
    h = fx->h, h.nhidden = 9;
    refused_header(fx, h, TAFEL_EPARSE, "a header out of range");
    h = fx->h, h.players = 0;
    refused_header(fx, h, TAFEL_EPARSE, "a header out of range");
    h = fx->h, h.planes = 1; /* planes without a board and a squeeze */
    refused_header(fx, h, TAFEL_EPARSE, "a header out of range");
    h = fx->h, h.planes = 1, h.board = 64, h.squeeze = 1; /* more cells than inputs */
    refused_header(fx, h, TAFEL_EPARSE, "a header out of range");
    h = fx->h, h.hidden[0] = 0;
    refused_header(fx, h, TAFEL_EPARSE, "a hidden layer's width out of range");
    h = fx->h, h.nconv = 1, h.conv[0] = 0;
    refused_header(fx, h, TAFEL_EPARSE, "a convolution's channels out of range");
}

static void reading_a_missing_file_is_an_io_error(void **state) {
    fixture *fx = *state;
    tafel_net *net = (tafel_net *)(uintptr_t)1;
    tafel_error err = {0};
    assert_int_equal(tafel_net_read(fx->game, "/nonexistent/net.tfnet", &net, &err),
                     TAFEL_EIO);
    assert_non_null(strstr(err.message, "cannot open /nonexistent/net.tfnet"));
    assert_null(net);
}

/* A whole game: seat 0 by bot, seat 1 random; every move legal. */
static int play_game(const tafel_game *game, tafel_bot *bot, uint64_t seed) {
    tafel_state *st = tafel_state_new(game);
    int cap = tafel_game_max_actions(game);
    tafel_action *scratch = calloc((size_t)cap, sizeof *scratch);
    uint64_t rng = seed;
    int moves = 0;
    tafel_error err = {0};
    for (int seat; (seat = tafel_state_current(st)) != TAFEL_TERMINAL;) {
        tafel_action a;
        if (seat == 0) {
            int rc = tafel_bot_choose(bot, st, &a, &err);
            if (rc) fail_msg("move %d: %s", moves, err.message);
            assert_true(tafel_state_is_legal(st, a));
            moves++;
            assert_int_equal(tafel_state_apply(st, a, &err), TAFEL_OK);
        } else {
            assert_int_equal(tafel_state_play_random(st, &rng, scratch, cap, &a), TAFEL_OK);
        }
    }
    tafel_state_free(st);
    free(scratch);
    return moves;
}

static void a_net_guides_a_search_and_not_greedy(void **state) {
    fixture *fx = *state;
    file f = worked_net(fx, &fx->h, NULL);
    tafel_net *net = load(fx, &f);
    tafel_bot *bot = NULL;
    tafel_error err = {0};
    assert_int_equal(tafel_bot_new("greedy", fx->game, 1, &bot, &err), TAFEL_OK);
    assert_int_equal(tafel_bot_set_net(bot, net, 4, &err), TAFEL_EBOT);
    tafel_bot_free(bot);

    /* a net of another game: refused by the search */
    tafel_game *other = h_game("catan_cards");
    assert_int_equal(tafel_bot_new("mcts:iters=20", other, 1, &bot, &err), TAFEL_OK);
    assert_int_equal(tafel_bot_set_net(bot, net, 4, &err), TAFEL_EGAME);
    assert_non_null(strstr(err.message, "catan_cards"));
    tafel_bot_free(bot);
    tafel_game_free(other);

    assert_int_equal(tafel_bot_new("mcts:iters=20", fx->game, 1, &bot, &err), TAFEL_OK);
    assert_int_equal(tafel_bot_set_net(bot, net, 4, &err), TAFEL_OK);
    assert_true(play_game(fx->game, bot, 7) > 5);
    tafel_bot_free(bot);
    tafel_net_free(net);
    free(f.bytes);
}

static void expert_plays_cardcassonne_with_its_built_in_net(void **state) {
    fixture *fx = *state;
    tafel_bot *bot = NULL;
    tafel_error err = {0};
    int rc = tafel_bot_new("expert:iters=50", fx->game, 3, &bot, &err);
    if (rc) fail_msg("expert: %s", err.message);
    assert_true(play_game(fx->game, bot, 11) > 5);
    tafel_bot_free(bot);
}

static void expert_says_when_no_net_is_built_in(void **state) {
    (void)state;
    tafel_game *game = h_game("carcassonne(players=5)");
    tafel_bot *bot = (tafel_bot *)(uintptr_t)1;
    tafel_error err = {0};
    assert_int_equal(tafel_bot_new("expert", game, 1, &bot, &err), TAFEL_EBOT);
    assert_null(bot);
    assert_non_null(strstr(err.message, "no net is built in for carcassonne with 5 players"));
    tafel_game_free(game);
}

/* tests/nets/<name>.json: the game, its net (a .tfnet beside it), inputs
** (each its nonzero entries, [index, value]) and PyTorch's outputs for
** them, "logits" when the net has a policy (tests/nets/make_fixture.py). */
static void matches_torch(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/nets/%s.json", TAFEL_SOURCE_DIR, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) fail_msg("cannot open %s", path);
    static char text[1 << 18];
    size_t size = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[size] = 0;
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    tafel_game *game = h_game(cJSON_GetObjectItem(doc, "game")->valuestring);
    snprintf(path, sizeof path, "%s/tests/nets/%s", TAFEL_SOURCE_DIR,
             cJSON_GetObjectItem(doc, "net")->valuestring);
    tafel_net *net = NULL;
    tafel_error err = {0};
    if (tafel_net_read(game, path, &net, &err)) fail_msg("%s: %s", path, err.message);
    cJSON *inputs = cJSON_GetObjectItem(doc, "inputs");
    cJSON *values = cJSON_GetObjectItem(doc, "values");
    cJSON *logits = cJSON_GetObjectItem(doc, "logits");
    assert_int_equal(tafel_net_has_policy(net), logits != NULL);
    int n = cJSON_GetArraySize(inputs), players = tafel_game_players(game);
    int space = tafel_game_action_space_size(game);
    size_t size_in = tafel_game_tensor_size(game, tafel_net_kind(net));
    assert_true(n >= 2);
    float *x = calloc(size_in, sizeof *x), v[TAFEL_MAX_PLAYERS];
    float *l = calloc((size_t)space, sizeof *l), *m = calloc((size_t)space, sizeof *m);
    int *wanted = calloc((size_t)space, sizeof *wanted);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        memset(x, 0, size_in * sizeof *x);
        cJSON *entry;
        cJSON_ArrayForEach(entry, cJSON_GetArrayItem(inputs, i)) {
            int at = cJSON_GetArrayItem(entry, 0)->valueint;
            assert_true(at >= 0 && (size_t)at < size_in);
            x[at] = (float)cJSON_GetArrayItem(entry, 1)->valuedouble;
        }
        assert_int_equal(tafel_net_forward(net, x, 1, v, logits ? l : NULL, &err), TAFEL_OK);
        cJSON *want_v = cJSON_GetArrayItem(values, i);
        assert_int_equal(cJSON_GetArraySize(want_v), players);
        for (int p = 0; p < players; p++) {
            double d = fabs(v[p] - cJSON_GetArrayItem(want_v, p)->valuedouble);
            worst = d > worst ? d : worst;
        }
        if (!logits) continue;
        cJSON *want_l = cJSON_GetArrayItem(logits, i);
        assert_int_equal(cJSON_GetArraySize(want_l), space);
        for (int k = 0; k < space; k++) {
            double d = fabs(l[k] - cJSON_GetArrayItem(want_l, k)->valuedouble);
            worst = d > worst ? d : worst;
        }
        /* a search's forward: the logits of a few indices (every third,
        ** from a different start for each input), the same as the whole
        ** policy's; the others not written */
        int nwanted = 0;
        for (int k = 0; k < space; k++) {
            m[k] = -12345;
            if ((k + i) % 3 == 0) wanted[nwanted++] = k;
        }
        assert_int_equal(tf_net_forward_some(net, x, 1, v, m, wanted, &nwanted, (size_t)space,
                                             &err), TAFEL_OK);
        for (int k = 0; k < space; k++)
            if ((k + i) % 3 == 0) assert_float_equal(m[k], l[k], 1e-6);
            else assert_true(m[k] == -12345);
        wanted[0] = space;
        assert_int_equal(tf_net_forward_some(net, x, 1, v, m, wanted, &nwanted, (size_t)space,
                                             &err), TAFEL_EINVAL);
        assert_non_null(strstr(err.message, "no policy index"));
    }
    if (!(worst <= 1e-5)) fail_msg("%s: C and torch differ by %g", name, worst);
    free(x);
    free(l);
    free(m);
    free(wanted);
    tafel_net_free(net);
    tafel_game_free(game);
    cJSON_Delete(doc);
}

static void cardcassonne_net_matches_torch(void **state) {
    (void)state;
    matches_torch("cardcassonne");
}

static void catan_cards_net_matches_torch(void **state) {
    (void)state;
    matches_torch("catan_cards");
}

static void carcassonne_conv_net_matches_torch(void **state) {
    (void)state;
    matches_torch("carcassonne");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example_in_float32),
        cmocka_unit_test(worked_example_in_float16),
        cmocka_unit_test(bad_files_refused_with_their_reason),
        cmocka_unit_test(reading_a_missing_file_is_an_io_error),
        cmocka_unit_test(a_net_guides_a_search_and_not_greedy),
        cmocka_unit_test(expert_plays_cardcassonne_with_its_built_in_net),
        cmocka_unit_test(expert_says_when_no_net_is_built_in),
        cmocka_unit_test(cardcassonne_net_matches_torch),
        cmocka_unit_test(catan_cards_net_matches_torch),
        cmocka_unit_test(carcassonne_conv_net_matches_torch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
