/*
** sim_resume.c -- `tafel sim --resume`: count the records of an interrupted
** run again, and go on from the next game.
**
** The --out file holds exactly the games counted, in game order, one record
** a line: sim writes a record only when it counts its game.  So its k
** complete lines are games 0..k-1, and the run goes on at game k.  Each
** record must be that game's of this run (game string, the deal's chance
** seed, the seating): a resume with other options would mix two
** experiments.  Its result is recovered by replaying it, and goes through
** the same in-order counting as a played game, so the statistics, the SPRT
** and the file at the end are those of a run never interrupted.  A last line
** without its newline was cut by the crash: it is dropped, the file cut
** back to the complete lines.
*/
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Record and game i of this run agree: the game string, the chance seed
** of its deal, and who sat where. */
static int check_identity(const sim_job *job, long i, const tafel_record *record,
                          char *why, size_t why_size) {
    const char *game = tafel_game_string(job->game);
    if (strcmp(tafel_record_game_string(record), game)) {
        snprintf(why, why_size, "its game is '%s', this run's is '%s'",
                 cli_printable(tafel_record_game_string(record)), game);
        return 1;
    }
    if (tafel_record_seed(record) != sim_chance_seed(job, i)) {
        snprintf(why, why_size, "its seed is not game %ld's of --seed %llu%s", i,
                 (unsigned long long)job->seed, job->paired ? " with --paired" : "");
        return 1;
    }
    for (int k = 0; k < job->nbots; k++) {
        const char *name = tafel_record_player(record, k);
        if (!name || strcmp(name, sim_seated(job, i, k))) {
            snprintf(why, why_size, "seat %d is played by '%s', in this run by '%s'", k,
                     name ? cli_printable(name) : "", sim_seated(job, i, k));
            return 1;
        }
    }
    return 0;
}

/* What the statistics count, from the final state: scores, winners, length.
** A record says more than its actions (an external bot's forfeit:
** "forfeit": {"seat": S, "reason": ...}, the seat losing and the others
** sharing the win; the result its writer saw, "scores" and "winners",
** which must be the replay's); that belongs here, once, so that a resumed
** game counts as it was counted when played. */
int sim_result_from_record(const sim_job *job, long i, const char *json,
                           sim_result *res, char *why, size_t why_size) {
    tafel_record *record = NULL;
    tafel_game *game = NULL;
    tafel_state *state = NULL;
    tafel_error err = {0, ""};
    int rc = tafel_record_from_json(json, &record, &err);
    if (rc) snprintf(why, why_size, "%s", err.message);
    if (!rc) rc = check_identity(job, i, record, why, why_size);
    if (!rc && (rc = tafel_record_replay(record, &game, &state, &err)))
        snprintf(why, why_size, "%s", err.message);
    const char *reason = NULL;
    int lost = rc ? -1 : tafel_record_forfeit(record, &reason);
    if (!rc && lost < 0 && tafel_state_current(state) != TAFEL_TERMINAL) {
        snprintf(why, why_size, "the game does not end (%d actions)",
                 tafel_record_action_count(record));
        rc = 1;
    }
    if (!rc) rc = cli_check_result(record, state, lost, why, why_size);
    if (!rc) {
        tafel_state_scores(state, res->scores);
        if (lost >= 0) /* a game stopped by a program's fault */
            sim_forfeit(res, state, lost, reason);
        else
            res->nwinners = tafel_state_winners(state, res->winners);
        res->length = tafel_state_move_number(state);
    }
    tafel_state_free(state);
    tafel_game_free(game);
    tafel_record_free(record);
    return rc ? 1 : 0;
}

/* Count the complete lines of in as games 0, 1, ...; *kept is their
** length in bytes, *partial that of a cut last line. */
static int count_records(sim_job *job, FILE *in, long *kept, long *partial) {
    char *line = NULL, why[300];
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    *kept = *partial = 0;
    while (!rc && (len = getline(&line, &cap, in)) > 0) {
        if (line[len - 1] != '\n') {
            *partial = (long)len;
            break;
        }
        long i = job->counted;
        if (i >= job->limit) {
            fprintf(stderr, "tafel sim: %s holds more games than this run counts (%ld)\n",
                    job->out_path, job->limit);
            rc = 1;
            break;
        }
        line[len - 1] = 0;
        sim_result *res = sim_slot(job, i);
        if (sim_result_from_record(job, i, line, res, why, sizeof why)) {
            fprintf(stderr, "tafel sim: %s line %ld cannot be game %ld of this run: %s\n",
                    job->out_path, i + 1, i, why);
            rc = 1;
            break;
        }
        pthread_mutex_lock(&job->lock);
        sim_finish(job, i); /* counted at once: every game before it is */
        pthread_mutex_unlock(&job->lock);
        *kept += (long)len;
    }
    if (!rc && ferror(in)) {
        fprintf(stderr, "tafel sim: cannot read '%s': %s\n", job->out_path, strerror(errno));
        rc = 1;
    }
    free(line);
    return rc;
}

int sim_resume(sim_job *job) {
    const char *path = job->out_path;
    FILE *in = fopen(path, "r");
    if (!in && errno == ENOENT) return 0; /* the first run of a resumable job */
    if (!in) {
        fprintf(stderr, "tafel sim: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    long kept, partial;
    int rc = count_records(job, in, &kept, &partial);
    fclose(in);
    if (rc) return 1;
    if (partial) {
        if (truncate(path, (off_t)kept) != 0) {
            fprintf(stderr, "tafel sim: cannot cut '%s' back to its complete records: %s\n",
                    path, strerror(errno));
            return 1;
        }
        fprintf(stderr, "tafel sim: %s: dropped a cut last line (%ld bytes)\n", path,
                partial);
    }
    job->resumed = job->next = job->counted;
    fprintf(stderr, "tafel sim: resuming after %ld games read back from %s\n",
            job->counted, path);
    return 0;
}
