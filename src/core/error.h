/*
** error.h -- filling the caller's tafel_error (internal to the library).
**
** Shared by the core, the games, records and bots: it knows nothing of any
** game, so including it gives a bot no view of engine internals.
*/
#ifndef TF_ERROR_H
#define TF_ERROR_H

#include "tafel.h"

#include <stddef.h>

/* Fill err (if not NULL) with code and a formatted message; return code. */
int tf_error(tafel_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Input quoted in a message (tafel_quote) is cut to TF_QUOTE - 1 bytes, so
** that the reason after a long quote is still in the message. */
#define TF_QUOTE 48
/* tafel_quote into a buffer that lives until the end of the enclosing
** block: for the arguments of one tf_error call. */
#define TF_Q(text) tafel_quote((text), (char[TF_QUOTE]){0}, TF_QUOTE)

#endif
