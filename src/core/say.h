/*
** say.h -- the words of a terminal picture, as English or as events.
**
** A picture (tafel_state_render) is drawing and words.  Without
** TAFEL_RENDER_WORDS each piece of words is written in English, as before;
** with it, as an event a front end says from its catalog (the template
** <game>.view.<kind>): \x1e{"kind":"pile","count":60}\x1f, inline, the
** drawing around it unchanged.  One site in a view.c says one piece:
**
**     tf_say_begin(&say, b, flags, "pile");
**     tf_say_int(&say, "count", n);
**     tf_say_end(&say, "Left in the pile (%d):", n);
**
** A field "pad" asks the front end to pad the said words with blanks to
** that many characters, for columns (the English format pads itself).
** The engine reads no catalog: it only names what is said.
*/
#ifndef TF_SAY_H
#define TF_SAY_H

#include "buf.h"

/* a control character no text of a picture holds: an event begins */
#define TF_SAY_OPEN '\x1e'
/* ... and ends */
#define TF_SAY_CLOSE '\x1f'

typedef struct tf_say {
    tf_buf *b;
    int words; /* TAFEL_RENDER_WORDS was asked for: write events */
} tf_say;

/* Begin a piece of words of that kind (a plain name: letters, digits, _). */
void tf_say_begin(tf_say *say, tf_buf *b, int flags, const char *kind);
/* A field of the event; nothing without the flag. */
void tf_say_int(tf_say *say, const char *field, int value);
void tf_say_str(tf_say *say, const char *field, const char *value);
/* End it: with the flag the event closes and fmt is not used; without, the
** English is fmt written as printf would. */
void tf_say_end(tf_say *say, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A piece of words with no fields: the event, or english as it is. */
void tf_say_text(tf_buf *b, int flags, const char *kind, const char *english);

#endif
