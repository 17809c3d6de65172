/*
** error.h -- filling the caller's tafel_error (internal to the library).
**
** Shared by the core, the games, records and bots: it knows nothing of any
** game, so including it gives a bot no view of engine internals.
*/
#ifndef TF_ERROR_H
#define TF_ERROR_H

#include "tafel.h"

/* Fill err (if not NULL) with code and a formatted message; return code. */
int tf_error(tafel_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
