/*
** util.c -- helpers shared by the tafel commands.
**
** Option parsing is table-driven (each command lists its options), numbers
** are checked in full, and everything that prints an error says which
** argument was wrong.  Nothing here keeps state between calls.
*/
#include "cli.h"
#include "extbot.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

void cli_print_help(const cli_command *cmd, FILE *out) {
    fprintf(out, "usage: tafel %s\n\n%s\n", cmd->usage, cmd->help);
}

static const cli_option *find_option(const cli_option *options, int n,
                                     const char *arg, size_t len) {
    for (int i = 0; i < n; i++)
        if (strlen(options[i].name) == len && !strncmp(options[i].name, arg, len))
            return &options[i];
    return NULL;
}

/* One "--name[=value]" argument at argv[*i]; moves *i past its value. */
static int parse_option(const cli_command *cmd, int argc, char **argv, int *i,
                        const cli_option *options, int noptions) {
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *o = find_option(options, noptions, arg, len);
    if (!o) {
        fprintf(stderr, "tafel %s: unknown option '%.*s' (see tafel %s --help)\n",
                cmd->name, (int)len, arg, cmd->name);
        return CLI_USAGE;
    }
    if (!o->takes_value) {
        if (eq) {
            fprintf(stderr, "tafel %s: %s takes no value\n", cmd->name, o->name);
            return CLI_USAGE;
        }
        *o->value = "1";
        return CLI_CONTINUE;
    }
    if (eq) {
        *o->value = eq + 1;
    } else if (*i + 1 < argc) {
        *o->value = argv[++*i];
    } else {
        fprintf(stderr, "tafel %s: %s needs a value\n", cmd->name, o->name);
        return CLI_USAGE;
    }
    return CLI_CONTINUE;
}

int cli_parse(const cli_command *cmd, int argc, char **argv,
              const cli_option *options, int noptions,
              const char **positional, int max_positional) {
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            cli_print_help(cmd, stdout);
            return 0;
        }
        if (arg[0] == '-' && arg[1] == '-') {
            int rc = parse_option(cmd, argc, argv, &i, options, noptions);
            if (rc != CLI_CONTINUE) return rc;
        } else if (npos < max_positional) {
            positional[npos++] = arg;
        } else {
            fprintf(stderr, "tafel %s: unexpected argument '%s'\nusage: tafel %s\n",
                    cmd->name, arg, cmd->usage);
            return CLI_USAGE;
        }
    }
    return CLI_CONTINUE;
}

int cli_uint64(const char *text, const char *what, uint64_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end || errno) {
        fprintf(stderr, "tafel: %s must be a number 0..2^64-1, not '%s'\n", what,
                text);
        return CLI_USAGE;
    }
    *out = (uint64_t)v;
    return 0;
}

int cli_int(const char *text, const char *what, int min, int max, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!text[0] || *end || errno || v < min || v > max) {
        fprintf(stderr, "tafel: %s must be a number %d..%d, not '%s'\n", what, min,
                max, text);
        return CLI_USAGE;
    }
    *out = (int)v;
    return 0;
}

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
#define MAX_PLAYERS_TEXT STRINGIFY(TAFEL_MAX_PLAYERS)

/* A piece "key=value" with no bot name continues the previous bot's
** options: "greedy:depth=2,x=1,random" is greedy:depth=2,x=1 and random. */
static int continues_options(const char *piece, size_t len) {
    return memchr(piece, '=', len) && !memchr(piece, ':', len);
}

int cli_split_players(const char *list, char storage[][CLI_NAME_MAX],
                      const char **names) {
    int n = 0;
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        int more = n > 0 && continues_options(p, len);
        size_t used = more ? strlen(storage[n - 1]) + 1 : 0;
        const char *problem = len == 0 ? "empty player name"
                            : used + len >= CLI_NAME_MAX ? "a name is too long"
                            : !more && n == TAFEL_MAX_PLAYERS
                                ? "too many players (at most " MAX_PLAYERS_TEXT ")"
                            : NULL;
        if (problem) {
            fprintf(stderr, "tafel: --players '%s': %s\n", cli_printable(list), problem);
            return -1;
        }
        char *to = more ? storage[n - 1] : storage[n];
        if (more) to[used - 1] = ',';
        /* "Greedy" is greedy, as moves ignore case; but an external bot's
        ** command line is the program's business */
        int command = !strncasecmp(more ? to : p, "ext:", 4);
        for (size_t i = 0; i < len; i++)
            to[used + i] = command && (more || i >= 4) ? p[i] : (char)tolower((unsigned char)p[i]);
        to[used + len] = 0;
        if (!more) names[n] = storage[n], n++;
        p += len;
        if (!*p) return n;
    }
}

/* Whether the game string sets players itself ("carc(players=3)"). */
static int gives_players(const char *text) {
    const char *open = strchr(text, '(');
    const char *p = open ? strstr(open, "players") : NULL;
    while (p) {
        char before = p[-1], after = p[7];
        if ((before == '(' || before == ',' || before == ' ') &&
            (after == '=' || after == ' '))
            return 1;
        p = strstr(p + 1, "players");
    }
    return 0;
}

/* text with players=n added to its parameters. */
/* The game string with players=n added; its length, as snprintf's. */
static int with_players(const char *text, int n, char *out, size_t size) {
    const char *open = strchr(text, '(');
    if (!open) return snprintf(out, size, "%s(players=%d)", text, n);
    const char *rest = open + 1 + strspn(open + 1, " ");
    return snprintf(out, size, "%.*s(players=%d%s%s", (int)(open - text), text, n,
                    *rest == ')' ? "" : ",", rest);
}

int cli_load_game(const char *text, int nplayers, tafel_game **out) {
    char full[512];
    int given = gives_players(text), length;
    if (nplayers > 0 && !given) length = with_players(text, nplayers, full, sizeof full);
    else length = snprintf(full, sizeof full, "%s", text);
    if (length < 0 || (size_t)length >= sizeof full) {
        fprintf(stderr, "tafel: the game string is too long (%zu bytes, at most %zu): '%s'\n",
                strlen(text), sizeof full - 1 - (nplayers > 0 && !given ? 12 : 0),
                cli_printable(text));
        return CLI_USAGE;
    }
    tafel_error err;
    if (tafel_game_load(full, out, &err)) {
        fprintf(stderr, "tafel: game '%s': %s", cli_printable(text), err.message);
        if (nplayers > 0 && !given && strstr(err.message, "players"))
            fprintf(stderr, " (--players names %d)", nplayers);
        fprintf(stderr, "\n");
        return CLI_USAGE;
    }
    int players = tafel_game_players(*out);
    if (nplayers > 0 && given && players != nplayers) {
        fprintf(stderr,
                "tafel: the game string '%s' has players=%d but --players names %d\n",
                text, players, nplayers);
        tafel_game_free(*out);
        *out = NULL;
        return CLI_USAGE;
    }
    return 0;
}

const char *cli_printable(const char *text) {
    static char buf[8][201];
    static int next;
    next = (next + 1) % 8;
    return tafel_quote(text, buf[next], sizeof buf[next]);
}

const char *cli_seat_name(int seat) {
    static const char *const names[TAFEL_MAX_PLAYERS] = {"Red", "Blue", "Yellow",
                                                         "Green", "Black"};
    return seat >= 0 && seat < TAFEL_MAX_PLAYERS ? names[seat] : "?";
}

uint64_t cli_mix(uint64_t seed, uint64_t i) {
    uint64_t rng = tafel_rng_seed(seed) ^ (i * 0xD1B54A32D192ED03ull);
    return tafel_rng_next(&rng);
}

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_choose(const tafel_state *state, int seat, tafel_bot **bots, uint64_t *rng,
               tafel_action *actions, int cap, tafel_action *out,
               tafel_error *err) {
    if (seat == TAFEL_CHANCE) {
        int rc = tafel_state_sample_chance(state, rng, out);
        if (rc && err) {
            err->code = rc;
            snprintf(err->message, sizeof err->message, "cannot sample chance");
        }
        return rc;
    }
    if (bots && bots[seat]) return tafel_bot_choose(bots[seat], state, out, err);
    int n = tafel_state_legal_actions(state, actions, cap);
    if (n > cap) n = cap;
    if (n <= 0) {
        if (err) {
            err->code = TAFEL_ESTATE;
            snprintf(err->message, sizeof err->message, "no legal action");
        }
        return TAFEL_ESTATE;
    }
    *out = actions[tafel_rng_below(rng, (uint32_t)n)];
    return TAFEL_OK;
}

int cli_write_record(const tafel_record *record, const char *path) {
    char *json = tafel_record_to_json(record);
    FILE *f = json ? fopen(path, "w") : NULL;
    int ok = f && fprintf(f, "%s\n", json) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok)
        fprintf(stderr, "tafel: cannot write record to '%s': %s\n", path,
                json ? strerror(errno) : "out of memory");
    free(json);
    return ok ? 0 : 1;
}

#define MAX_CATEGORIES 16

/* The union of the seats' category names, in first-seen order. */
static int categories(const tafel_state *state, const char **out) {
    int n = 0;
    for (int seat = 0; seat < tafel_state_players(state); seat++) {
        const char *names[MAX_CATEGORIES];
        double values[MAX_CATEGORIES];
        int k = tafel_state_score_breakdown(state, seat, names, values,
                                            MAX_CATEGORIES);
        for (int i = 0; i < k && i < MAX_CATEGORIES; i++) {
            int j = 0;
            while (j < n && strcmp(out[j], names[i])) j++;
            if (j == n && n < MAX_CATEGORIES) out[n++] = names[i];
        }
    }
    return n;
}

static double category_value(const tafel_state *state, int seat,
                             const char *category) {
    const char *names[MAX_CATEGORIES];
    double values[MAX_CATEGORIES];
    int k = tafel_state_score_breakdown(state, seat, names, values,
                                        MAX_CATEGORIES);
    for (int i = 0; i < k && i < MAX_CATEGORIES; i++)
        if (!strcmp(names[i], category)) return values[i];
    return 0;
}


int cli_winners(const tafel_state *state, int forfeit, int *out) {
    if (forfeit < 0) return tafel_state_winners(state, out);
    int players = tafel_state_players(state), n = 0;
    double scores[TAFEL_MAX_PLAYERS], best = 0;
    int over = tafel_state_current(state) == TAFEL_TERMINAL;
    tafel_state_scores(state, scores);
    for (int seat = 0; seat < players; seat++)
        if (seat != forfeit && (!n++ || scores[seat] > best)) best = scores[seat];
    n = 0;
    for (int seat = 0; seat < players; seat++)
        if (seat != forfeit && (!over || scores[seat] == best)) out[n++] = seat;
    return n;
}

/* "[0, 2]": a list of seats for a message. */
static void seats_text(const int *seats, int n, char *out, size_t size) {
    size_t used = (size_t)snprintf(out, size, "[");
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%d", i ? ", " : "", seats[i]);
    if (used < size) snprintf(out + used, size - used, "]");
}

int cli_check_result(const tafel_record *record, const tafel_state *state, int forfeit,
                     char *why, size_t size) {
    double said[TAFEL_MAX_PLAYERS], scores[TAFEL_MAX_PLAYERS];
    int named[TAFEL_MAX_PLAYERS], winners[TAFEL_MAX_PLAYERS], nnamed;
    int n = tafel_record_result(record, said, named, &nnamed);
    int players = tafel_state_players(state);
    if (n == 0) return 0;
    if (n != players) {
        snprintf(why, size, "its \"scores\" give %d seats, the game has %d", n, players);
        return 1;
    }
    tafel_state_scores(state, scores);
    for (int seat = 0; seat < players; seat++)
        if (said[seat] != scores[seat]) {
            snprintf(why, size, "its \"scores\" give seat %d %g, its replay %g", seat,
                     said[seat], scores[seat]);
            return 1;
        }
    int nw = cli_winners(state, forfeit, winners), same = nw == nnamed;
    for (int i = 0; same && i < nw; i++) {
        int found = 0;
        for (int j = 0; j < nnamed; j++) found |= named[j] == winners[i];
        same = found;
    }
    if (same) return 0;
    char a[64], b[64];
    seats_text(named, nnamed, a, sizeof a);
    seats_text(winners, nw, b, sizeof b);
    snprintf(why, size, "its \"winners\" are seats %s, its replay's %s", a, b);
    return 1;
}

void cli_print_result(const tafel_state *state, const char *const *names, int forfeit) {
    const char *cats[MAX_CATEGORIES];
    int ncats = categories(state, cats), players = tafel_state_players(state);
    double totals[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, totals);
    int width[MAX_CATEGORIES];
    printf("%-20s", "player");
    for (int c = 0; c < ncats; c++) {
        width[c] = (int)strlen(cats[c]) > 9 ? (int)strlen(cats[c]) : 9;
        printf(" %*s", width[c], cats[c]);
    }
    printf(" %9s\n", "total");
    for (int seat = 0; seat < players; seat++) {
        char who[96];
        snprintf(who, sizeof who, "%s (%s)", cli_seat_name(seat),
                 names && names[seat] ? names[seat] : "?");
        printf("%-20s", who);
        for (int c = 0; c < ncats; c++)
            printf(" %*g", width[c], category_value(state, seat, cats[c]));
        printf(" %9g\n", totals[seat]);
    }
    int winners[TAFEL_MAX_PLAYERS];
    int nw = cli_winners(state, forfeit, winners);
    if (nw == 0) return;
    printf(nw == 1 ? "Winner:" : "Shared win:");
    for (int i = 0; i < nw; i++)
        printf("%s %s (%s)", i ? "," : "", cli_seat_name(winners[i]),
               names && names[winners[i]] ? names[winners[i]] : "?");
    printf("\n");
}

void cli_progress(long done, long total, double started, const char *note) {
    if (!isatty(STDERR_FILENO) || total <= 0) return;
    enum { WIDTH = 30 };
    int filled = (int)(WIDTH * done / total);
    double elapsed = cli_now() - started;
    char bar[WIDTH + 1];
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, '.', (size_t)(WIDTH - filled));
    bar[WIDTH] = 0;
    fprintf(stderr, "\r[%s] %3ld%% %ld/%ld  %.1f/s%s%s\033[K", bar, 100 * done / total,
            done, total, elapsed > 0 ? (double)done / elapsed : 0.0,
            note ? "  " : "", note ? note : "");
    fflush(stderr);
}

void cli_progress_done(void) {
    if (isatty(STDERR_FILENO)) fprintf(stderr, "\r\033[K");
}

int cli_check_program(const char *spec, const tafel_game *game) {
    char why[EXTBOT_REASON_MAX];
    extbot *program = extbot_new(spec, why, sizeof why);
    int rc = program && !extbot_new_game(program, game, 0, 0, why, sizeof why) ? 0 : CLI_USAGE;
    if (rc) fprintf(stderr, "tafel: --players %s\n", cli_printable(why));
    extbot_free(program);
    return rc;
}
