/*
** chat.h -- the chat at a table (docs/protocol.md, "chat"): plain lines,
** stored with the table (the `chat` table of the database), told to those
** who may read them.  Players' lines go to everyone at the table;
** spectators' lines to spectators only (as lichess keeps them apart: a
** player never reads the kibitzers, before or after the end).
*/
#ifndef TF_SERVER_CHAT_H
#define TF_SERVER_CHAT_H

#include "session.h"

#define CHAT_TEXT_MAX 500     /* bytes of one line (UTF-8) */
#define CHAT_BURST ((int)(sizeof ((session *)0)->chat_at / sizeof (int64_t))) /* lines a person may say ... */
#define CHAT_BURST_MS 10000   /* ... within this many milliseconds */
#define CHAT_TABLE_MAX 1000   /* players' lines a table keeps, and spectators': then it refuses more */
#define CHAT_HISTORY 100      /* lines a socket is sent when it joins */

/* Socket s (at a table) says text: checked, stored, told; or an error to s. */
void chat_say(session *s, const char *text);
/* Sends s (just joined) the latest lines it may read: {"type":"chat","lines":[...]};
** nothing when there are none. */
void chat_joined(session *s);

#endif
