/*
** extbot.c -- external bots: a program run under /bin/sh, its standard
** input and output two pipes, one JSON object per line (cJSON).
**
** The controller never waits on the program without a deadline: its input
** pipe is non-blocking and what does not fit waits in a buffer, and every
** read is a poll() bounded by the time of the move.  SIGPIPE is ignored in
** the controller, so a program that dies makes writes fail with EPIPE
** instead of killing the controller.  The program runs in a process group
** of its own, so that killing it also kills what its shell started.
*/
#include "extbot.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A line from the program longer than this is garbage, not an answer. */
#define LINE_MAX_BYTES (64u << 10)
/* Output the program leaves unread past this means it reads nothing. */
#define PENDING_MAX_BYTES (16u << 20)
/* How long a program that was asked to quit may take before it is killed. */
#define QUIT_GRACE_MS 500

struct extbot {
    char *command;
    int ms;        /* per move */
    char spec[96]; /* shown until the program names itself */
    char name[96];
    pid_t pid;     /* 0: no program running */
    pid_t group;   /* its process group (its first pid), 0: none */
    int to_fd;     /* the program's standard input, non-blocking */
    int from_fd;   /* its standard output */
    int seat;
    char *pending; /* written to the program, not yet taken by the pipe */
    size_t pending_len, pending_cap;
    char line[LINE_MAX_BYTES]; /* what it wrote, up to a newline */
    size_t line_len;
    int overflowed; /* the program left more than PENDING_MAX_BYTES unread */
};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

int extbot_is_spec(const char *spec) {
    return spec && !strncmp(spec, EXTBOT_PREFIX, strlen(EXTBOT_PREFIX));
}

/* "COMMAND,ms=N": the ms option is the last comma's; a command may hold
** commas of its own. */
static int parse_spec(const char *spec, extbot *b, char *why, size_t size) {
    const char *command = spec + strlen(EXTBOT_PREFIX);
    size_t len = strlen(command);
    const char *comma = strrchr(command, ',');
    b->ms = EXTBOT_DEFAULT_MS;
    if (comma && !strncmp(comma + 1, "ms=", 3)) {
        char *end;
        long ms = strtol(comma + 4, &end, 10);
        if (end == comma + 4 || *end || ms < 1 || ms > 3600000) {
            snprintf(why, size, "'%s': ms= must be a number of milliseconds, 1..3600000",
                     spec);
            return -1;
        }
        b->ms = (int)ms;
        len = (size_t)(comma - command);
    }
    while (len && command[0] == ' ') command++, len--;
    if (!len) {
        snprintf(why, size, "'%s': give the command that runs the bot, such as "
                 "ext:'python3 bots/example.py'", spec);
        return -1;
    }
    if (!(b->command = malloc(len + 1))) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    memcpy(b->command, command, len);
    b->command[len] = 0;
    return 0;
}

extbot *extbot_new(const char *spec, char *why, size_t size) {
    if (!extbot_is_spec(spec)) {
        snprintf(why, size, "'%s' is not an external bot (ext:COMMAND)", spec);
        return NULL;
    }
    extbot *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    b->to_fd = b->from_fd = -1;
    if (parse_spec(spec, b, why, size)) {
        free(b);
        return NULL;
    }
    tafel_quote(spec, b->spec, sizeof b->spec);
    snprintf(b->name, sizeof b->name, "%s", b->spec);
    return b;
}

const char *extbot_name(const extbot *b) { return b->name; }

long extbot_pid(const extbot *b) { return (long)b->pid; }

/* ---------------------------------------------------------------------------
** The process.
*/

static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

static void ignore_sigpipe(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

/* Pipes are made close-on-exec under this lock, and programs are started
** under it: another thread's program must not inherit this one's pipe
** ends, or this program would never see its input close. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

static int cloexec_pipe(int fds[2]) {
    if (pipe(fds)) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static int spawn(extbot *b, int to[2], int from[2]) {
    posix_spawn_file_actions_t files;
    posix_spawnattr_t attr;
    sigset_t none, pipe_signal;
    sigemptyset(&none);
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE); /* the program gets SIGPIPE back */
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, to[0], 0);
    posix_spawn_file_actions_adddup2(&files, from[1], 1);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigdefault(&attr, &pipe_signal);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);
    char *argv[] = {"sh", "-c", b->command, NULL};
    int rc = posix_spawn(&b->pid, "/bin/sh", &files, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
    return rc;
}

static int start(extbot *b, char *reason, size_t size) {
    pthread_once(&sigpipe_once, ignore_sigpipe);
    int to[2], from[2];
    pthread_mutex_lock(&spawn_lock);
    int rc = cloexec_pipe(to);
    if (!rc && (rc = cloexec_pipe(from))) close(to[0]), close(to[1]);
    if (!rc && (rc = spawn(b, to, from))) {
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        errno = rc;
    }
    pthread_mutex_unlock(&spawn_lock);
    if (rc) {
        snprintf(reason, size, "cannot start '%s': %s", b->spec, strerror(errno));
        b->pid = 0;
        return -1;
    }
    close(to[0]);
    close(from[1]);
    b->group = b->pid;
    b->to_fd = to[1];
    b->from_fd = from[0];
    fcntl(b->to_fd, F_SETFL, fcntl(b->to_fd, F_GETFL) | O_NONBLOCK);
    b->pending_len = b->line_len = 0;
    b->overflowed = 0;
    return 0;
}

/* How the program ended, if it has within wait_ms: "exited with status 1",
** "was killed by signal 11"; NULL while it runs.  Reaps it. */
static const char *ended(extbot *b, int wait_ms, char *buf, size_t size) {
    for (int waited = 0;; waited += 10) {
        int status;
        pid_t r = waitpid(b->pid, &status, WNOHANG);
        if (r == b->pid) {
            b->pid = 0;
            /* /bin/sh runs the command as its child, and reports a child
            ** killed by signal N as its own exit status 128 + N */
            if (WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
                WEXITSTATUS(status) < 128 + 32)
                snprintf(buf, size, "exited with status %d (the shell's way to say: "
                         "killed by signal %d)", WEXITSTATUS(status),
                         WEXITSTATUS(status) - 128);
            else if (WIFEXITED(status))
                snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
            else if (WIFSIGNALED(status))
                snprintf(buf, size, "was killed by signal %d", WTERMSIG(status));
            else
                snprintf(buf, size, "ended");
            return buf;
        }
        if (r < 0) { /* not our child any more: someone reaped it */
            b->pid = 0;
            snprintf(buf, size, "ended");
            return buf;
        }
        if (waited >= wait_ms) return NULL;
        sleep_ms(10);
    }
}

static void close_pipes(extbot *b) {
    if (b->to_fd >= 0) close(b->to_fd);
    if (b->from_fd >= 0) close(b->from_fd);
    b->to_fd = b->from_fd = -1;
    b->pending_len = b->line_len = 0;
}

/* End the program now: its group killed (what it started too, which may
** hold the pipes after the program itself is gone), it reaped. */
static void kill_program(extbot *b) {
    close_pipes(b);
    if (b->group) kill(-b->group, SIGKILL);
    b->group = 0;
    if (!b->pid) return;
    int status;
    while (waitpid(b->pid, &status, 0) < 0 && errno == EINTR) {
    }
    b->pid = 0;
}

/* ---------------------------------------------------------------------------
** Lines out and in.
*/

/* Hand the pipe what it takes now.  -1 when the program closed its input. */
static int flush_some(extbot *b) {
    size_t done = 0;
    while (done < b->pending_len) {
        ssize_t n = write(b->to_fd, b->pending + done, b->pending_len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        return -1;
    }
    memmove(b->pending, b->pending + done, b->pending_len - done);
    b->pending_len -= done;
    return 0;
}

/* Queue a message (freed here) and send what the pipe takes. */
static void send_json(extbot *b, cJSON *message) {
    char *text = message ? cJSON_PrintUnformatted(message) : NULL;
    cJSON_Delete(message);
    if (!text || !b->pid) {
        free(text);
        return;
    }
    size_t len = strlen(text);
    if (b->pending_len + len + 1 > PENDING_MAX_BYTES) {
        b->overflowed = 1;
    } else {
        if (b->pending_len + len + 1 > b->pending_cap) {
            size_t cap = b->pending_cap ? b->pending_cap : 4096;
            while (cap < b->pending_len + len + 1) cap *= 2;
            char *grown = realloc(b->pending, cap);
            if (!grown) {
                free(text);
                b->overflowed = 1;
                return;
            }
            b->pending = grown;
            b->pending_cap = cap;
        }
        memcpy(b->pending + b->pending_len, text, len);
        b->pending[b->pending_len + len] = '\n';
        b->pending_len += len + 1;
    }
    free(text);
    flush_some(b);
}

/* Why the program stopped talking: "exited with status 1 before its
** answer". */
static void gone(extbot *b, const char *waiting_for, char *reason, size_t size) {
    char how[128];
    const char *end = b->pid ? ended(b, 200, how, sizeof how) : NULL;
    snprintf(reason, size, "%s before its %s", end ? end : "closed its pipes",
             waiting_for);
}

/* The next line the program writes within budget_ms, with
** pending output sent meanwhile.  Returns the line (in b->line, zero
** ended), or NULL with the reason. */
/* extbot_interrupt: a flag, and a pipe kept readable while it is set, so
** that a read already waiting in poll wakes too. */
static atomic_int interrupted;
static int wake_pipe[2] = {-1, -1};
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;

static void make_wake_pipe(void) {
    if (pipe(wake_pipe)) wake_pipe[0] = wake_pipe[1] = -1; /* then the flag alone */
    for (int i = 0; i < 2 && wake_pipe[i] >= 0; i++) {
        fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(wake_pipe[i], F_SETFL, O_NONBLOCK);
    }
}

void extbot_interrupt(void) {
    pthread_once(&wake_once, make_wake_pipe);
    if (atomic_exchange(&interrupted, 1)) return;
    if (wake_pipe[1] >= 0 && write(wake_pipe[1], "x", 1) < 0) { /* full: readable anyway */ }
}

void extbot_resume(void) {
    pthread_once(&wake_once, make_wake_pipe);
    char drain[16];
    while (wake_pipe[0] >= 0 && read(wake_pipe[0], drain, sizeof drain) > 0) {}
    atomic_store(&interrupted, 0);
}

int extbot_interrupted(void) { return atomic_load(&interrupted); }

static const char *read_line(extbot *b, int budget_ms, const char *waiting_for,
                             char *reason, size_t size) {
    double deadline = now_ms() + budget_ms;
    pthread_once(&wake_once, make_wake_pipe);
    for (;;) {
        char *newline = memchr(b->line, '\n', b->line_len);
        if (newline) {
            *newline = 0;
            return b->line;
        }
        if (b->line_len == sizeof b->line) {
            snprintf(reason, size, "wrote a line longer than %u bytes",
                     LINE_MAX_BYTES);
            return NULL;
        }
        if (b->overflowed) {
            snprintf(reason, size, "does not read its input");
            return NULL;
        }
        if (atomic_load(&interrupted)) {
            snprintf(reason, size, "interrupted while waiting for its %s", waiting_for);
            return NULL;
        }
        double left = deadline - now_ms();
        if (left <= 0) {
            snprintf(reason, size, "no %s within %d ms", waiting_for, budget_ms);
            return NULL;
        }
        struct pollfd fds[3] = {{b->from_fd, POLLIN, 0}, {wake_pipe[0], POLLIN, 0},
                                {b->to_fd, POLLOUT, 0}};
        int n = poll(fds, b->pending_len ? 3 : 2, (int)left + 1);
        if (n < 0 && errno != EINTR) {
            snprintf(reason, size, "poll: %s", strerror(errno));
            return NULL;
        }
        if (n <= 0) continue;
        if (b->pending_len && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) &&
            flush_some(b)) {
            gone(b, waiting_for, reason, size);
            return NULL;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t got = read(b->from_fd, b->line + b->line_len,
                               sizeof b->line - b->line_len);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
                gone(b, waiting_for, reason, size);
                return NULL;
            }
            if (got > 0) b->line_len += (size_t)got;
        }
    }
}

/* Drop the line read_line returned. */
static void consume_line(extbot *b) {
    size_t used = strlen(b->line) + 1;
    memmove(b->line, b->line + used, b->line_len - used);
    b->line_len -= used;
}

/* 1 if the program wrote something nobody asked for. */
static int spoke_out_of_turn(extbot *b, char *reason, size_t size) {
    struct pollfd fd = {b->from_fd, POLLIN, 0};
    if (b->line_len == 0 && (poll(&fd, 1, 0) <= 0 || !(fd.revents & POLLIN)))
        return 0;
    if (b->line_len == 0) {
        ssize_t got = read(b->from_fd, b->line, sizeof b->line - 1);
        if (got <= 0) return 0; /* it closed: the read of the answer says how */
        b->line_len = (size_t)got;
    }
    char quoted[80];
    b->line[b->line_len < sizeof b->line ? b->line_len : sizeof b->line - 1] = 0;
    b->line[strcspn(b->line, "\n")] = 0;
    snprintf(reason, size, "wrote when it was not its turn: '%s'",
             tafel_quote(b->line, quoted, sizeof quoted));
    return 1;
}

/* A message the program sent: an object of type want, or NULL with the
** reason. */
static cJSON *parse_message(const char *line, const char *want, char *reason,
                            size_t size) {
    char quoted[80];
    cJSON *message = cJSON_Parse(line);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(message, "type");
    if (!cJSON_IsObject(message) || !cJSON_IsString(type) ||
        strcmp(type->valuestring, want)) {
        snprintf(reason, size, "answered garbage (not {\"type\": \"%s\", ...}): '%s'",
                 want, tafel_quote(line, quoted, sizeof quoted));
        cJSON_Delete(message);
        return NULL;
    }
    return message;
}

/* ---------------------------------------------------------------------------
** The conversation.
*/

static int hello(extbot *b, char *reason, size_t size) {
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "hello");
    cJSON_AddNumberToObject(m, "protocol", EXTBOT_PROTOCOL);
    cJSON_AddStringToObject(m, "tafel", TAFEL_VERSION);
    send_json(b, m);
    char why[EXTBOT_REASON_MAX];
    const char *line = read_line(b, EXTBOT_HELLO_MS, "hello", why, sizeof why);
    cJSON *answer = line ? parse_message(line, "hello", why, sizeof why) : NULL;
    if (!answer) {
        snprintf(reason, size, "%s did not greet: %s", b->spec, why);
        return -1;
    }
    consume_line(b);
    const cJSON *protocol = cJSON_GetObjectItemCaseSensitive(answer, "protocol");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(answer, "name");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(answer, "version");
    int rc = 0;
    if (protocol && !(cJSON_IsNumber(protocol) && protocol->valuedouble == EXTBOT_PROTOCOL)) {
        snprintf(reason, size, "%s speaks another protocol than %d", b->spec,
                 EXTBOT_PROTOCOL);
        rc = -1;
    } else if (cJSON_IsString(name)) {
        char text[96];
        snprintf(text, sizeof text, "%s%s%s", name->valuestring,
                 cJSON_IsString(version) ? " " : "",
                 cJSON_IsString(version) ? version->valuestring : "");
        tafel_quote(text, b->name, sizeof b->name);
    }
    cJSON_Delete(answer);
    return rc;
}

int extbot_new_game(extbot *b, const tafel_game *game, int seat, uint64_t seed,
                    char *reason, size_t size) {
    char how[64];
    if (b->pid && ended(b, 0, how, sizeof how)) kill_program(b); /* it died between games */
    if (!b->pid && (start(b, reason, size) || hello(b, reason, size))) {
        kill_program(b);
        return -1;
    }
    b->seat = seat;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "new_game");
    cJSON_AddStringToObject(m, "game", tafel_game_string(game));
    cJSON_AddNumberToObject(m, "seat", seat);
    cJSON_AddNumberToObject(m, "players", tafel_game_players(game));
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    cJSON_AddItemToObject(m, "seed", cJSON_CreateRaw(seed_text));
    send_json(b, m);
    return 0;
}

/* The turn message: the seat's view, the legal actions' texts, the time. */
static cJSON *turn_message(const extbot *b, const tafel_state *state) {
    cJSON *m = cJSON_CreateObject();
    char *view = tafel_state_view_json(state, b->seat);
    tafel_action actions[4096];
    int n = tafel_state_legal_actions(state, actions, 4096);
    cJSON *legal = cJSON_CreateArray();
    for (int i = 0; legal && i < n && i < 4096; i++) {
        char text[TAFEL_ACTION_TEXT_MAX];
        tafel_action_to_text(state, actions[i], text, sizeof text);
        cJSON_AddItemToArray(legal, cJSON_CreateString(text));
    }
    cJSON_AddStringToObject(m, "type", "turn");
    cJSON_AddNumberToObject(m, "move", tafel_state_move_number(state));
    cJSON_AddItemToObject(m, "view", view ? cJSON_CreateRaw(view) : cJSON_CreateNull());
    cJSON_AddItemToObject(m, "legal", legal);
    cJSON_AddNumberToObject(m, "time_ms", b->ms);
    free(view);
    return m;
}

/* The action in the program's answer, or -1 with the reason. */
static int read_action(const tafel_state *state, const char *line, tafel_action *out,
                       char *reason, size_t size) {
    char quoted[80];
    cJSON *answer = parse_message(line, "action", reason, size);
    if (!answer) return -1;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(answer, "action");
    int rc = 0;
    tafel_error err;
    if (!cJSON_IsString(text)) {
        snprintf(reason, size, "answered without an \"action\" string: '%s'",
                 tafel_quote(line, quoted, sizeof quoted));
        rc = -1;
    } else if (tafel_action_from_text(state, text->valuestring, out, &err)) {
        snprintf(reason, size, "answered an illegal action: %s", err.message);
        rc = -1;
    }
    cJSON_Delete(answer);
    return rc;
}

int extbot_choose(extbot *b, const tafel_state *state, tafel_action *out,
                  char *reason, size_t size) {
    if (!b->pid) {
        snprintf(reason, size, "%s is not running", b->spec);
        return -1;
    }
    if (spoke_out_of_turn(b, reason, size)) {
        kill_program(b);
        return -1;
    }
    send_json(b, turn_message(b, state));
    const char *line = read_line(b, b->ms, "answer", reason, size);
    if (!line || read_action(state, line, out, reason, size)) {
        kill_program(b);
        return -1;
    }
    consume_line(b);
    return 0;
}

void extbot_seen(extbot *b, const tafel_state *state, tafel_action action) {
    if (!b->pid) return;
    char text[TAFEL_ACTION_TEXT_MAX];
    int by = tafel_state_current(state);
    if (tafel_action_view_text(state, b->seat, action, text, sizeof text) < 0) return;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "seen");
    cJSON_AddNumberToObject(m, "move", tafel_state_move_number(state));
    if (by == TAFEL_CHANCE)
        cJSON_AddStringToObject(m, "by", "chance");
    else
        cJSON_AddNumberToObject(m, "by", by);
    cJSON_AddStringToObject(m, "action", text);
    send_json(b, m);
}

void extbot_game_over(extbot *b, const tafel_state *state, const int *winners,
                      int nwinners, int forfeit_seat, const char *reason) {
    if (!b->pid) return;
    int players = tafel_state_players(state);
    double scores[TAFEL_MAX_PLAYERS];
    tafel_state_scores(state, scores);
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "type", "game_over");
    cJSON_AddItemToObject(m, "scores", cJSON_CreateDoubleArray(scores, players));
    cJSON_AddItemToObject(m, "winners", cJSON_CreateIntArray(winners, nwinners));
    if (forfeit_seat >= 0) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddNumberToObject(f, "seat", forfeit_seat);
        cJSON_AddStringToObject(f, "reason", reason ? reason : "");
        cJSON_AddItemToObject(m, "forfeit", f);
    }
    send_json(b, m);
}

void extbot_free(extbot *b) {
    if (!b) return;
    if (b->pid) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "type", "quit");
        send_json(b, m);
        /* what is left of the output gets the grace time, then input closes */
        double deadline = now_ms() + QUIT_GRACE_MS;
        while (b->pending_len && now_ms() < deadline) {
            struct pollfd fd = {b->to_fd, POLLOUT, 0};
            poll(&fd, 1, 10);
            if (flush_some(b)) break;
        }
        close(b->to_fd);
        b->to_fd = -1;
        char how[64];
        int left = (int)(deadline - now_ms());
        ended(b, left > 0 ? left : 0, how, sizeof how);
        kill_program(b);
    }
    free(b->pending);
    free(b->command);
    free(b);
}
