/* score.c - judging a position on a board: Benson's pass-alive chains, ownership by
   playouts, dead stones, the final score with dead stones removed. Reads the board it is
   given and changes nothing but the caller's random stream. */
#include "go.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Benson's pass-alive chains ------------------------------------------------------------ */

/* Chains of one color that cannot be captured even if that color always passes: each keeps
   two "vital" enclosed regions (every empty point of the region is its liberty) whose every
   bordering chain is itself still alive. Chains and regions are numbered 0.. (np at most);
   the r * np + k tables pair region r with chain k. */
typedef struct {
    const go_board *b;
    int color, np, nreg, nch;
    int16_t *region;       /* region number of a point that is not color, -1 for none */
    int16_t *chidx;        /* chain number of a stone of color, -1 elsewhere */
    int *reg_empty;        /* empty points of region r */
    uint16_t *cnt;         /* [r * np + k]: empty points of region r that are liberties of k */
    uint8_t *borders;      /* [r * np + k]: chain k touches region r */
    uint8_t *reg_ok, *ch_ok;
    uint16_t *stack;
} benson;

static void benson_free(benson *bn)
{
    free(bn->region); free(bn->chidx); free(bn->reg_empty); free(bn->cnt); free(bn->borders);
    free(bn->reg_ok); free(bn->ch_ok); free(bn->stack);
}

/* 1 when every table could be allocated. */
static int benson_alloc(benson *bn, const go_board *b, int color)
{
    int np = b->npoints;
    memset(bn, 0, sizeof *bn);
    bn->b = b;
    bn->color = color;
    bn->np = np;
    bn->region = malloc(np * sizeof *bn->region);
    bn->chidx = malloc(np * sizeof *bn->chidx);
    bn->reg_empty = calloc(np, sizeof *bn->reg_empty);
    bn->cnt = calloc((size_t)np * np, sizeof *bn->cnt);
    bn->borders = calloc((size_t)np * np, 1);
    bn->reg_ok = malloc(np);
    bn->ch_ok = malloc(np);
    bn->stack = malloc(np * sizeof *bn->stack);
    return bn->region && bn->chidx && bn->reg_empty && bn->cnt && bn->borders && bn->reg_ok &&
           bn->ch_ok && bn->stack;
}

static void benson_number_chains(benson *bn)
{
    const go_board *b = bn->b;
    for (int p = 0; p < bn->np; p++) {
        bn->region[p] = bn->chidx[p] = -1;
        if (b->color[p] == bn->color && b->chain[p] == p)
            bn->chidx[p] = (int16_t)bn->nch++;
    }
    for (int p = 0; p < bn->np; p++)
        if (b->color[p] == bn->color)
            bn->chidx[p] = bn->chidx[b->chain[p]];
}

/* Point q of region r: its bordering chains, and its neighbours that join the region. */
static void benson_visit(benson *bn, int q, int r, int *sp)
{
    const go_board *b = bn->b;
    int nb[4] = {q - 1, q + 1, q - b->stride, q + b->stride};
    int seen[4], ns = 0, np = bn->np;
    for (int i = 0; i < 4; i++) {
        int t = nb[i], tc = b->color[t];
        if (tc == bn->color) {
            int k = bn->chidx[t], dup = 0;
            bn->borders[r * np + k] = 1;
            for (int j = 0; j < ns; j++)
                dup |= seen[j] == k;
            if (!dup && b->color[q] == GO_EMPTY) {
                seen[ns++] = k;
                bn->cnt[r * np + k]++;
            }
        } else if (tc != GO_BORDER && bn->region[t] < 0) {
            bn->region[t] = (int16_t)r;
            bn->stack[(*sp)++] = (uint16_t)t;
        }
    }
    if (b->color[q] == GO_EMPTY)
        bn->reg_empty[r]++;
}

/* Regions: maximal connected sets of points that are not color (and not border). */
static void benson_find_regions(benson *bn)
{
    const go_board *b = bn->b;
    for (int p = 0; p < bn->np; p++) {
        int c = b->color[p];
        if (c == bn->color || c == GO_BORDER || bn->region[p] >= 0)
            continue;
        int sp = 0, r = bn->nreg++;
        bn->stack[sp++] = (uint16_t)p;
        bn->region[p] = (int16_t)r;
        while (sp)
            benson_visit(bn, bn->stack[--sp], r, &sp);
    }
}

static int benson_vital_regions(const benson *bn, int k)
{
    int vital = 0, np = bn->np;
    for (int r = 0; r < bn->nreg; r++)
        if (bn->reg_ok[r] && bn->borders[r * np + k] && bn->reg_empty[r] > 0 &&
            bn->cnt[r * np + k] == bn->reg_empty[r])
            vital++;
    return vital;
}

/* Drop chains with fewer than two vital regions and regions next to a dropped chain, until
   nothing changes. */
static void benson_settle(benson *bn)
{
    int np = bn->np;
    memset(bn->reg_ok, 1, np);
    memset(bn->ch_ok, 1, np);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < bn->nch; k++)
            if (bn->ch_ok[k] && benson_vital_regions(bn, k) < 2) {
                bn->ch_ok[k] = 0;
                changed = 1;
            }
        for (int r = 0; r < bn->nreg; r++) {
            if (!bn->reg_ok[r])
                continue;
            for (int k = 0; k < bn->nch; k++)
                if (bn->borders[r * np + k] && !bn->ch_ok[k]) {
                    bn->reg_ok[r] = 0;
                    changed = 1;
                    break;
                }
        }
    }
}

/* Marks the stones of color's pass-alive chains in alive[point]. */
static void score_benson_color(const go_board *b, int color, uint8_t *alive)
{
    benson bn;
    if (benson_alloc(&bn, b, color)) {
        benson_number_chains(&bn);
        benson_find_regions(&bn);
        benson_settle(&bn);
        for (int p = 0; p < bn.np; p++)
            if (b->color[p] == color && bn.ch_ok[bn.chidx[p]])
                alive[p] = 1;
    }
    benson_free(&bn);
}

void go_score_pass_alive(const go_board *b, uint8_t *out)
{
    uint8_t alive[GO_MAX_POINTS];
    memset(alive, 0, sizeof alive);
    score_benson_color(b, GO_BLACK, alive);
    score_benson_color(b, GO_WHITE, alive);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            out[y * b->size + x] = alive[go_point(b, x, y)];
}

/* ---- Ownership, dead stones, final score ---------------------------------------------------- */

void go_score_ownership(const go_board *b, int playouts, go_rng *rng, float *own)
{
    int n = b->size * b->size;
    double *sum = calloc(n, sizeof *sum);
    if (!sum)
        return;
    if (playouts < 1)
        playouts = 1;
    go_board tmp;
    for (int i = 0; i < playouts; i++) {
        go_board_copy(&tmp, b);
        tmp.passes = 0;
        go_playout_run(&tmp, GO_POLICY_HEAVY, rng, NULL, 0, NULL);
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++)
                sum[y * b->size + x] += go_point_owner(&tmp, go_point(&tmp, x, y));
    }
    for (int i = 0; i < n; i++)
        own[i] = (float)(sum[i] / playouts);
    free(sum);
}

/* Mean ownership of the chain with head p, from its colour's side. */
static double score_chain_mean(const go_board *b, const float *own, int p)
{
    double sum = 0;
    int k = 0, s = p;
    do {
        int sx, sy;
        go_xy(b, s, &sx, &sy);
        sum += own[sy * b->size + sx];
        k++;
        s = b->next[s];
    } while (s != p);
    return sum / k * (b->color[p] == GO_BLACK ? 1 : -1);
}

/* Marks the stones of the chain with head p in out[y * size + x]; returns how many. */
static int score_mark_chain(const go_board *b, int p, uint8_t *out)
{
    int n = 0, s = p;
    do {
        int sx, sy;
        go_xy(b, s, &sx, &sy);
        out[sy * b->size + sx] = 1;
        n++;
        s = b->next[s];
    } while (s != p);
    return n;
}

int go_score_dead_stones(const go_board *b, int playouts, go_rng *rng, uint8_t *out)
{
    int n = b->size * b->size, ndead = 0;
    float *own = malloc(n * sizeof *own);
    uint8_t *alive = malloc(n);
    if (!own || !alive) {
        free(own); free(alive);
        return 0;
    }
    go_score_ownership(b, playouts, rng, own);
    go_score_pass_alive(b, alive);
    memset(out, 0, n);
    /* Judge whole chains by their mean ownership, so a chain is never half dead. */
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = go_point(b, x, y), c = b->color[p];
            if ((c != GO_BLACK && c != GO_WHITE) || b->chain[p] != p)
                continue;
            if (score_chain_mean(b, own, p) < -0.2 && !alive[y * b->size + x])
                ndead += score_mark_chain(b, p, out);
        }
    free(own);
    free(alive);
    return ndead;
}

double go_score_final(const go_board *b, double komi, int playouts, go_rng *rng)
{
    int n = b->size * b->size;
    uint8_t *dead = malloc(n);
    if (!dead)
        return go_board_area(b) - komi;
    go_score_dead_stones(b, playouts, rng, dead);
    /* Score a copy with the dead stones taken off (replayed as captures would be). */
    go_board tmp;
    go_board_init(&tmp, b->size);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = go_point(b, x, y);
            if (b->color[p] != GO_EMPTY && !dead[y * b->size + x])
                tmp.color[p] = b->color[p];
        }
    free(dead);
    return go_board_area(&tmp) - komi;
}
