/*
** builtin.c -- the nets built into the library (nets/, docs/nets.md), by
** game and number of players: what the level expert plays with.
*/
#include "builtin.h"
#include "nn.h"

#include <string.h>

const unsigned char *tf_builtin_net(const tafel_game *game, size_t *size) {
    for (const tf_builtin *b = tf_builtins; b->game; b++)
        if (!strcmp(b->game, tafel_game_name(game)) && b->players == tafel_game_players(game)) {
            *size = b->size;
            return b->bytes;
        }
    return NULL;
}
