/*
** principality.c -- one player's row of cards (rules §1): the layout, the
** resources on the regions, what the buildings are worth.
**
** Columns are stored shifted by CT_COL0.  Regions lie on odd columns (rows
** -1, +1), settlements, cities and their building sites on even columns,
** roads on odd columns of row 0.  A building site at row -1 or +1 borders
** the regions left and right of it in the same row; rows -2 and +2 (cities
** only) border none.
**
** Paying and gaining follow the rules file's fixed convention: pay from the
** region of that kind holding most, gain onto the one holding least that
** has room; ties go to the lowest column, then row -1.
*/
#include "catan.h"

#include <stddef.h>
#include <string.h>

static const int8_t site_rows[CT_SITE_ROWS] = {-2, -1, 1, 2};

int ct_site_row(int ri) { return site_rows[ri]; }

void ct_principality_init(ct_state *s, int seat) {
    ct_player *p = &s->p[seat];
    memset(p->centre, CT_EMPTY, sizeof p->centre);
    memset(p->site, CT_NONE, sizeof p->site);
    for (int c = 0; c < CT_COLS; c++)
        for (int r = 0; r < 2; r++) p->region[c][r] = (ct_region){CT_NONE, 0};
    p->centre[CT_COL0] = CT_SETTLEMENT;
    p->centre[CT_COL0 + 1] = CT_ROAD;
    p->centre[CT_COL0 + 2] = CT_SETTLEMENT;
    p->left = CT_COL0;
    p->right = CT_COL0 + 2;
}

int ct_stock(const ct_state *s, int seat, int res) { return s->p[seat].stock[res]; }

int ct_total_stock(const ct_state *s, int seat) {
    int n = 0;
    for (int res = 0; res < CT_RES; res++) n += s->p[seat].stock[res];
    return n;
}

int ct_room(const ct_state *s, int seat, int res) { return s->p[seat].room[res]; }

/* Set a region's stock and keep the counts by kind: paying, gaining,
** production and the events that take or give resources need no recount. */
static void set_stock(ct_player *p, ct_region *g, int n) {
    int kind = ct_region_cards[g->card].kind;
    p->stock[kind] = (uint8_t)(p->stock[kind] + n - g->stock);
    p->room[kind] = (uint8_t)(p->room[kind] + g->stock - n);
    g->stock = (uint8_t)n;
}

/* The region of kind res to pay from (most) or gain on (least, with room):
** kind_at lists them in tie-break order, so the first best one wins. */
static ct_region *pick_region(ct_state *s, int seat, int res, int paying) {
    ct_player *p = &s->p[seat];
    ct_region *all = &p->region[0][0], *best = NULL;
    for (int i = 0; i < p->kind_n[res]; i++) {
        ct_region *g = &all[p->kind_at[res][i]];
        if (paying ? g->stock == 0 : g->stock == 3) continue;
        if (!best || (paying ? g->stock > best->stock : g->stock < best->stock)) best = g;
    }
    return best;
}

void ct_pay(ct_state *s, int seat, int res, int n) {
    for (int i = 0; i < n; i++) {
        ct_region *g = pick_region(s, seat, res, 1);
        if (!g) return;
        set_stock(&s->p[seat], g, g->stock - 1);
    }
}

int ct_gain(ct_state *s, int seat, int res, int n) {
    int got = 0;
    for (int i = 0; i < n; i++) {
        ct_region *g = pick_region(s, seat, res, 0);
        if (!g) break;
        set_stock(&s->p[seat], g, g->stock + 1);
        got++;
    }
    return got;
}

void ct_pay_cost(ct_state *s, int seat, const uint8_t cost[CT_RES_WORD]) {
    for (int res = 0; res < CT_RES; res++) ct_pay(s, seat, res, cost[res]);
}

int ct_count_type(const ct_state *s, int seat, int type) { return s->p[seat].built[type]; }
int ct_strength(const ct_state *s, int seat) { return s->p[seat].strength; }
int ct_tournament(const ct_state *s, int seat) { return s->p[seat].tournament; }
int ct_trade_points(const ct_state *s, int seat) { return s->p[seat].trade; }
int ct_vp(const ct_state *s, int seat) {
    return s->p[seat].vp + (s->knight_token == seat) + (s->windmill == seat);
}
int ct_hand_limit(const ct_state *s, int seat) { return s->p[seat].limit; }

/* Whether the region at (col, row index) borders a building of type. */
static int borders(const ct_player *p, int col, int ri, int type) {
    int site_ri = ri == 0 ? 1 : 2; /* region row -1 <-> site row -1 */
    return (col - 1 >= 0 && p->site[col - 1][site_ri] == type) ||
           (col + 1 < CT_COLS && p->site[col + 1][site_ri] == type);
}

static int bordering_count(const ct_player *p, int col, int ri, int type) {
    int site_ri = ri == 0 ? 1 : 2;
    return (col - 1 >= 0 && p->site[col - 1][site_ri] == type) +
           (col + 1 < CT_COLS && p->site[col + 1][site_ri] == type);
}

/* Whether a producer building next to the region doubles its yield. */
static int doubled(const ct_player *p, int col, int ri, int kind) {
    for (int t = CT_BRICK_FACTORY; t <= CT_WOOLEN_MILL; t++)
        if (ct_cards[t].boosts == kind && borders(p, col, ri, t)) return 1;
    return 0;
}

/* Index the regions by kind and by production number. */
static void index_regions(ct_player *p) {
    memset(p->kind_n, 0, sizeof p->kind_n);
    memset(p->kind_at, 0, sizeof p->kind_at);
    memset(p->die_n, 0, sizeof p->die_n);
    memset(p->die_at, 0, sizeof p->die_at);
    for (int c = p->left - 1; c <= p->right + 1; c++)
        for (int r = 0; r < 2; r++) {
            const ct_region *g = &p->region[c][r];
            if (g->card == CT_NONE) continue;
            const ct_region_card *card = &ct_region_cards[g->card];
            int at = c * 2 + r;
            p->kind_at[card->kind][p->kind_n[card->kind]++] = (uint8_t)at;
            p->die_at[card->number][p->die_n[card->number]++] =
                (uint8_t)(at | (doubled(p, c, r, card->kind) ? CT_DOUBLED : 0));
        }
}

/* A city has four building sites, a settlement the two next to it. */
static int site_stands(const ct_player *p, int col, int ri) {
    int what = p->centre[col];
    return what == CT_CITY || (what == CT_SETTLEMENT && (ri == 1 || ri == 2));
}

/* Recount one principality: resources, cards built, points before tokens. */
static void recount(ct_player *p) {
    memset(p->stock, 0, sizeof p->stock);
    memset(p->room, 0, sizeof p->room);
    memset(p->built, 0, sizeof p->built);
    int vp = 0, strength = 0, tournament = 0, trade = 0, knights = 0, fleets = 0;
    p->has_city = 0;
    p->free_sites = p->free_city_sites = 0;
    for (int c = p->left - 1; c <= p->right + 1; c++) {
        for (int r = 0; r < 2; r++) {
            const ct_region *g = &p->region[c][r];
            if (g->card == CT_NONE) continue;
            int kind = ct_region_cards[g->card].kind;
            p->stock[kind] = (uint8_t)(p->stock[kind] + g->stock);
            p->room[kind] = (uint8_t)(p->room[kind] + 3 - g->stock);
        }
        if (c < p->left || c > p->right) continue;
        vp += p->centre[c] == CT_SETTLEMENT ? 1 : p->centre[c] == CT_CITY ? 2 : 0;
        p->has_city |= p->centre[c] == CT_CITY;
        for (int r = 0; r < CT_SITE_ROWS; r++) {
            int t = p->site[c][r];
            if (t == CT_NONE) {
                uint64_t bit = 1ull << (c / 2 * CT_SITE_ROWS + r);
                if (site_stands(p, c, r)) p->free_sites |= bit;
                if (p->centre[c] == CT_CITY) p->free_city_sites |= bit;
                continue;
            }
            const ct_card *card = &ct_cards[t];
            p->built[t]++;
            vp += card->vp;
            strength += card->strength;
            tournament += card->tournament;
            trade += card->trade;
            knights += card->strength > 0;
            fleets += card->fleet >= 0;
        }
    }
    p->strength = (uint8_t)(strength + (p->built[CT_SMITHY] ? knights : 0));
    p->tournament = (uint8_t)tournament;
    p->trade = (uint8_t)(trade + (p->built[CT_HARBOR] ? fleets : 0));
    p->limit = (uint8_t)(3 + p->built[CT_ABBEY] + p->built[CT_LIBRARY]);
    p->vp = (uint8_t)vp;
    for (int res = 0; res < CT_RES; res++)
        p->rate[res] = res == CT_GOLD && p->built[CT_MINT]  ? 1
                       : p->built[CT_FLEET_FIRST + res] ? 2
                                                        : 3;
    index_regions(p);
}

/* Rules §5: a token goes to strictly more, else it is set aside. */
void ct_refresh_seats(ct_state *s, unsigned seats) {
    for (int seat = 0; seat < 2; seat++)
        if (seats >> seat & 1) recount(&s->p[seat]);
    const ct_player *a = &s->p[0], *b = &s->p[1];
    s->knight_token = (int8_t)(a->strength > b->strength ? 0 : b->strength > a->strength ? 1 : -1);
    s->windmill = (int8_t)(a->has_city && a->trade > b->trade   ? 0
                           : b->has_city && b->trade > a->trade ? 1
                                                                : -1);
}

void ct_refresh(ct_state *s) { ct_refresh_seats(s, 3); }


/* Production: each region with the die's number gains 1, or 2 next to its
** producer building, up to 3. */
void ct_produce(ct_state *s, int die) {
    for (int seat = 0; seat < 2; seat++) {
        ct_player *p = &s->p[seat];
        for (int i = 0; i < p->die_n[die]; i++) {
            int at = p->die_at[die][i];
            ct_region *g = &p->region[0][0] + (at & ~CT_DOUBLED);
            int n = g->stock + (at & CT_DOUBLED ? 2 : 1);
            set_stock(p, g, n > 3 ? 3 : n);
        }
    }
}

int ct_protected(const ct_state *s, int seat, int col, int ri) {
    return borders(&s->p[seat], col, ri, CT_GARRISON);
}

int ct_garrisons_beside(const ct_state *s, int seat, int col, int ri) {
    return bordering_count(&s->p[seat], col, ri, CT_GARRISON);
}

/* More than 7 resources outside Garrison-protected regions: all ore and
** wool on unprotected regions are lost. */
void ct_brigand_attack(ct_state *s) {
    for (int seat = 0; seat < 2; seat++) {
        ct_player *p = &s->p[seat];
        int counted = 0;
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++)
                if (p->region[c][r].card != CT_NONE && !ct_protected(s, seat, c, r))
                    counted += p->region[c][r].stock;
        if (counted <= 7) continue;
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++) {
                ct_region *g = &p->region[c][r];
                if (g->card == CT_NONE || ct_protected(s, seat, c, r)) continue;
                int kind = ct_region_cards[g->card].kind;
                if (kind == CT_ORE || kind == CT_WOOL) set_stock(p, g, 0);
            }
    }
}

/* Each region next to one of the player's cities loses 1, unless an
** Aqueduct protects all or a Bath house the four around its city. */
void ct_plague(ct_state *s) {
    for (int seat = 0; seat < 2; seat++) {
        ct_player *p = &s->p[seat];
        if (ct_count_type(s, seat, CT_AQUEDUCT)) continue;
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++) {
                ct_region *g = &p->region[c][r];
                if (g->card == CT_NONE || g->stock == 0) continue;
                int hit = 0, safe = 0;
                for (int d = -1; d <= 1; d += 2) {
                    int city = c + d;
                    if (city < 0 || city >= CT_COLS || p->centre[city] != CT_CITY) continue;
                    hit = 1;
                    for (int ri = 0; ri < CT_SITE_ROWS; ri++)
                        safe |= p->site[city][ri] == CT_BATH_HOUSE;
                }
                if (hit && !safe) set_stock(p, g, g->stock - 1);
            }
    }
}

void ct_productive_year(ct_state *s) {
    for (int seat = 0; seat < 2; seat++) {
        ct_player *p = &s->p[seat];
        for (int c = p->left - 1; c <= p->right + 1; c++)
            for (int r = 0; r < 2; r++) {
                ct_region *g = &p->region[c][r];
                if (g->card == CT_NONE) continue;
                int n = g->stock + bordering_count(p, c, r, CT_GARRISON);
                set_stock(p, g, n > 3 ? 3 : n);
            }
    }
}

int ct_site_exists(const ct_state *s, int seat, int col, int ri) {
    if (col < 0 || col >= CT_COLS || ri < 0 || ri >= CT_SITE_ROWS) return 0;
    return site_stands(&s->p[seat], col, ri);
}

int ct_trade_rate(const ct_state *s, int seat, int res) { return s->p[seat].rate[res]; }
