/*
** stacks.c -- cards moving between the expansion stacks and the hands, and
** what each seat knows of them.
**
** Knowledge is a bit per card slot: stack_known[k][i] bit s when seat s
** knows the card at position i of stack k (it searched the stack, or put
** the card there itself); hand_known bit i when the other seat knows the
** card in hand slot i.  A card carries what is known of it when it moves,
** so a seat that knew the top of a stack knows the card the other player
** drew from it.
*/
#include "catan.h"

#include <string.h>

/* Drop bit i of a mask, shifting the higher bits down. */
static uint16_t drop_bit(uint16_t mask, int i) {
    unsigned low = mask & ((1u << i) - 1);
    return (uint16_t)(low | ((unsigned)(mask >> (i + 1)) << i));
}

void ct_hand_add(ct_state *s, int seat, int type, int other_knows) {
    ct_player *p = &s->p[seat];
    p->hand[p->hand_len] = (uint8_t)type;
    if (other_knows) p->hand_known |= (uint16_t)(1u << p->hand_len);
    else p->hand_known &= (uint16_t)~(1u << p->hand_len);
    p->hand_len++;
}

int ct_hand_find(const ct_state *s, int seat, int type) {
    const ct_player *p = &s->p[seat];
    for (int i = 0; i < p->hand_len; i++)
        if (p->hand[i] == type) return i;
    return -1;
}

void ct_hand_remove(ct_state *s, int seat, int slot) {
    ct_player *p = &s->p[seat];
    memmove(p->hand + slot, p->hand + slot + 1, (size_t)(p->hand_len - slot - 1));
    p->hand_len--;
    p->hand_known = drop_bit(p->hand_known, slot);
}

int ct_stack_find(const ct_state *s, int k, int type) {
    for (int i = 0; i < s->stack_len[k]; i++)
        if (s->stack[k][i] == type) return i;
    return -1;
}

void ct_stack_take(ct_state *s, int seat, int k, int slot) {
    int type = s->stack[k][slot];
    int other_knows = s->stack_known[k][slot] >> (1 - seat) & 1;
    int rest = s->stack_len[k] - slot - 1;
    memmove(s->stack[k] + slot, s->stack[k] + slot + 1, (size_t)rest);
    memmove(s->stack_known[k] + slot, s->stack_known[k] + slot + 1, (size_t)rest);
    s->stack_len[k]--;
    ct_hand_add(s, seat, type, other_knows);
}

void ct_put_under(ct_state *s, int seat, int slot, int k) {
    ct_player *p = &s->p[seat];
    int other_knows = p->hand_known >> slot & 1;
    int at = s->stack_len[k]++;
    s->stack[k][at] = p->hand[slot];
    s->stack_known[k][at] = (uint8_t)(1u << seat | (unsigned)other_knows << (1 - seat));
    ct_hand_remove(s, seat, slot);
}

void ct_learn_stack(ct_state *s, int seat, int k) {
    for (int i = 0; i < s->stack_len[k]; i++) s->stack_known[k][i] |= (uint8_t)(1u << seat);
}

void ct_learn_hand(ct_state *s, int seat) {
    const ct_player *other = &s->p[1 - seat];
    s->p[1 - seat].hand_known = (uint16_t)((1u << other->hand_len) - 1);
}
