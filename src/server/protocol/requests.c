/*
** requests.c -- the requests waiting for their table or their commit
** (requests.h).
**
** One list of every open request: a socket that closes with requests open
** (s->requests) walks it once to clear itself from them.  Requests are few
** -- one per change in flight or waiting -- and short-lived.
*/
#include "requests.h"

#include <stdlib.h>
#include <string.h>

static request *open_requests;

request *request_new(session *s) {
    request *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->s = s;
    r->seat = -1;
    r->next = open_requests;
    if (open_requests) open_requests->prev = r;
    open_requests = r;
    s->requests++;
    return r;
}

int request_text(request *r, const char *text) {
    size_t n = strlen(text) + 1;
    free(r->text);
    r->text = malloc(n);
    if (!r->text) return -1;
    memcpy(r->text, text, n);
    return 0;
}

void request_free(request *r) {
    if (!r) return;
    if (r->prev) r->prev->next = r->next;
    else open_requests = r->next;
    if (r->next) r->next->prev = r->prev;
    if (r->s) r->s->requests--;
    free(r->text);
    free(r);
}

void requests_closed(session *s) {
    for (request *r = open_requests; r && s->requests > 0; r = r->next)
        if (r->s == s) {
            r->s = NULL;
            s->requests--;
        }
}
