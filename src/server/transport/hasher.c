/*
** hasher.c -- the thread that hashes and verifies passwords (hasher.h).
**
** A FIFO of at most HASHER_QUEUE jobs, one worker, one done list, one
** mutex; the worker wakes the loop after each job, as botpool.c does.
** libsodium is thread-safe once sodium_init ran (serve.c).  Stored hashes
** are copied into crypto_pwhash_STRBYTES buffers before libsodium reads
** them (GCC 12's -Wstringop-overread, stack-turn3.md §4): jobs hold them so.
*/
#include "hasher.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define OPS crypto_pwhash_OPSLIMIT_INTERACTIVE
#define MEM crypto_pwhash_MEMLIMIT_INTERACTIVE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static hasher_job *queue_head, *queue_tail, *done_head, *done_tail;
static int queued, running, stopping;
static pthread_t thread;
static void (*wake_loop)(void);

/* A hash that no password matches, for unknown names (made once, by the
** worker). */
static char dummy[crypto_pwhash_STRBYTES];

static void run(hasher_job *job) {
    if (job->op == HASHER_MAKE) {
        job->ok = crypto_pwhash_str(job->result, job->password, job->password_len, OPS, MEM) == 0;
        job->failed = !job->ok;
        return;
    }
    char stored[crypto_pwhash_STRBYTES];
    int known = job->stored[0] != '\0';
    if (!known && !dummy[0]) {
        unsigned char random[32];
        randombytes_buf(random, sizeof random);
        if (crypto_pwhash_str(dummy, (const char *)random, sizeof random, OPS, MEM)) dummy[0] = 0;
    }
    memcpy(stored, known ? job->stored : dummy, sizeof stored);
    stored[sizeof stored - 1] = '\0';
    job->ok = known && crypto_pwhash_str_verify(stored, job->password, job->password_len) == 0;
    if (!known && stored[0] && /* the same cost as a known name's */
        crypto_pwhash_str_verify(stored, job->password, job->password_len) == 0)
        job->ok = 0;
    if (!job->ok) return;
    if (job->op == HASHER_CHECK) {
        job->rehashed = crypto_pwhash_str(job->result, job->password2, job->password2_len, OPS,
                                          MEM) == 0;
        job->failed = !job->rehashed;
    } else if (crypto_pwhash_str_needs_rehash(stored, OPS, MEM) != 0) {
        job->rehashed = crypto_pwhash_str(job->result, job->password, job->password_len, OPS,
                                          MEM) == 0;
    }
}

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!queue_head && !stopping) pthread_cond_wait(&work, &lock);
        if (stopping) break;
        hasher_job *job = queue_head;
        queue_head = job->next;
        if (!queue_head) queue_tail = NULL;
        job->next = NULL;
        pthread_mutex_unlock(&lock);
        run(job);
        pthread_mutex_lock(&lock);
        queued--;
        if (done_tail) done_tail->next = job;
        else done_head = job;
        done_tail = job;
        pthread_mutex_unlock(&lock);
        if (wake_loop) wake_loop();
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

int hasher_start(void (*wake)(void)) {
    wake_loop = wake;
    stopping = 0;
    if (pthread_create(&thread, NULL, worker, NULL)) return -1;
    running = 1;
    return 0;
}

static void free_list(hasher_job *job) {
    while (job) {
        hasher_job *next = job->next;
        hasher_job_free(job);
        job = next;
    }
}

void hasher_stop(void) {
    if (!running) return;
    pthread_mutex_lock(&lock);
    stopping = 1;
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = 0;
    free_list(queue_head);
    free_list(done_head);
    queue_head = queue_tail = done_head = done_tail = NULL;
    queued = 0;
}

int hasher_submit(hasher_job *job) {
    pthread_mutex_lock(&lock);
    if (!running || stopping || queued >= HASHER_QUEUE) {
        pthread_mutex_unlock(&lock);
        return -1;
    }
    job->next = NULL;
    if (queue_tail) queue_tail->next = job;
    else queue_head = job;
    queue_tail = job;
    queued++;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    return 0;
}

hasher_job *hasher_take_done(void) {
    pthread_mutex_lock(&lock);
    hasher_job *job = done_head;
    if (job) {
        done_head = job->next;
        if (!done_head) done_tail = NULL;
        job->next = NULL;
    }
    pthread_mutex_unlock(&lock);
    return job;
}

void hasher_job_free(hasher_job *job) {
    if (!job) return;
    sodium_memzero(job->password, sizeof job->password);
    sodium_memzero(job->password2, sizeof job->password2);
    free(job);
}
