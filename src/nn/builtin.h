/*
** builtin.h -- the weights files built into the library (internal): the
** table cmake/embed_nets.cmake makes from nets/<game>-<players>p.tfnet.
*/
#ifndef TF_BUILTIN_H
#define TF_BUILTIN_H

#include <stddef.h>

typedef struct tf_builtin {
    const char *game; /* NULL ends the table */
    int players;
    const unsigned char *bytes;
    size_t size;
} tf_builtin;

extern const tf_builtin tf_builtins[];

#endif
