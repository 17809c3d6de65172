/*
** hasher.h -- password hashes (Argon2id, libsodium) off the event loop.
**
** One hash costs ~110 ms and 64 MiB (stack-turn3.md §4), so the loop never
** hashes: it hands a job to the one hasher thread, which hashes or
** verifies, puts the job on a done list and wakes the loop (http_wake);
** the loop takes the finished jobs (hasher_take_done) from
** LWS_CALLBACK_EVENT_WAIT_CANCELLED.  The queue holds at most
** HASHER_QUEUE jobs: past them a request is answered "busy" (503) rather
** than wait seconds.  One thread: at most one hash's memory at a time.
*/
#ifndef TF_SERVER_HASHER_H
#define TF_SERVER_HASHER_H

#include <sodium.h>
#include <stddef.h>

#define HASHER_QUEUE 32
#define HASHER_PASSWORD_MAX 256

typedef enum hasher_op {
    HASHER_MAKE,   /* password -> result */
    HASHER_VERIFY, /* password against stored: ok; when it matches and
                   ** stored is weaker than today's limits, result is a new
                   ** hash (rehashed 1).  An empty stored verifies against a
                   ** dummy hash (an unknown name costs what a known one does) */
    HASHER_CHECK,  /* verify, then (when it matches) make result from password2 */
} hasher_op;

typedef struct hasher_job {
    hasher_op op;
    char password[HASHER_PASSWORD_MAX + 1];
    size_t password_len;
    char password2[HASHER_PASSWORD_MAX + 1];
    size_t password2_len;
    char stored[crypto_pwhash_STRBYTES];
    char result[crypto_pwhash_STRBYTES];
    int ok;        /* VERIFY/CHECK: the password matched; MAKE: result made */
    int rehashed;  /* result holds a new hash (VERIFY) */
    int failed;    /* out of memory */
    void *owner;   /* the loop's: who waits for it (NULL: nobody any more) */
    struct hasher_job *next;
} hasher_job;

/* Starts the thread; 0 or -1.  wake is called (from the thread) when a job
** is done. */
int hasher_start(void (*wake)(void));
/* Ends the thread (the job it runs finishes first); queued jobs are freed. */
void hasher_stop(void);
/* Hands the job (malloc'd) over: 0, or -1 when the queue is full (the job
** stays the caller's). */
int hasher_submit(hasher_job *job);
/* A finished job or NULL; the caller frees it with hasher_job_free. */
hasher_job *hasher_take_done(void);
/* Wipes the passwords and frees. */
void hasher_job_free(hasher_job *job);

#endif
