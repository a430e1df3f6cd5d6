/* rules.c - wins for the three rules and renju's forbidden points, read from the bit lines.
 *
 * Every function here looks at one line at a time: `own` holds the bits of one colour's stones
 * on the line, `empty` the line's empty on-board points, `pos` the point under study. Bits
 * outside 0..31 do not exist, so a window reaching off the board never counts as stones or
 * as empty points. The definitions are those of rules.py's docstring. */
#include "gomoku.h"
#include "internal.h"

static uint32_t bit_at(uint32_t m, int k)
{
    return k >= 0 && k < 32 ? (m >> k) & 1u : 0u;
}

/* The bits pos .. pos + n - 1 that exist (n <= 6). */
static uint32_t window(int pos, int n)
{
    if (pos < 0) {
        n += pos;
        pos = 0;
    }
    if (n <= 0 || pos >= 32)
        return 0;
    return (uint32_t)((((uint64_t)1 << n) - 1) << pos);
}

/* Bits set in m, counted in the word (SWAR): __builtin_popcount is a libgcc call on a target
   without a popcount instruction (x86-64's baseline), and the renju checks count often. */
static inline int popcount(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0fu;
    return (int)((m * 0x01010101u) >> 24);
}

int gm_rules_run(uint32_t own, int pos)
{
    /* own has bit pos set: count the ones above pos, then those below. */
    int up = __builtin_ctz(~(own >> pos));
    int down = pos == 31 ? 1 : __builtin_clz(~(own << (31 - pos)));
    return up + down - 1;
}

int gm_rules_wins(int rule, int color, int run)
{
    return gm_rules_overline_wins(rule, color) ? run >= 5 : run == 5;
}

int gm_rules_win_dir(const gm_board *b, int cell)
{
    int color = b->cell[cell];
    for (int d = 0; d < GM_NDIRS; d++)
        if (gm_rules_wins(b->rule, color, gm_rules_run(gm_line_bits(b, color, d, cell),
                                                       gm_pos_of[d][cell])))
            return d;
    return -1;
}

/* ---- fours ----------------------------------------------------------------------------- */

/* Five points from s: four stones, one empty point, and no stone just outside (so the empty
   point makes exactly five). */
static int four_window(uint32_t own, uint32_t empty, int s)
{
    uint32_t w = window(s, 5);
    return popcount(own & w) == 4 && popcount(empty & w) == 1 && !bit_at(own, s - 1)
           && !bit_at(own, s + 5);
}

int gm_rules_fours(uint32_t own, uint32_t empty, int pos)
{
    int n = 0, prev = 0;
    for (int s = pos - 4; s <= pos; s++) {
        int cur = four_window(own, empty, s);
        /* windows s-1 and s hold the same four stones when their empty points are their two
           ends: a straight four, counted once */
        if (cur && prev && bit_at(empty, s - 1) && bit_at(empty, s + 4))
            cur = 0;
        n += cur;
        prev = four_window(own, empty, s);
    }
    return n;
}

/* ---- threes ---------------------------------------------------------------------------- */

/* A straight four holding the points pos and q: four stones, empty ends, exact fives. */
static int straight_four(uint32_t own, uint32_t empty, int pos, int q)
{
    int lo = pos < q ? pos : q, hi = pos < q ? q : pos;
    for (int a = hi - 3; a <= lo; a++)
        if (popcount(own & window(a, 4)) == 4 && bit_at(empty, a - 1) && bit_at(empty, a + 4)
            && !bit_at(own, a - 2) && !bit_at(own, a + 5))
            return 1;
    return 0;
}

static int forbidden_placed(gm_board *b, int cell);

/* With q's stone put (as black) and lifted again: is q a non-forbidden point? */
static int allowed_with_stone(gm_board *b, int qcell)
{
    gm_board_put(b, qcell, GM_BLACK);
    int why = forbidden_placed(b, qcell);
    gm_board_lift(b, qcell);
    return why == GM_OK;
}

int gm_rules_three(gm_board *b, int cell, int dir)
{
    uint32_t own = gm_line_bits(b, GM_BLACK, dir, cell), empty = gm_line_empty(b, dir, cell);
    int pos = gm_pos_of[dir][cell];
    for (int k = -3; k <= 3; k++) {
        int q = pos + k;
        if (k == 0 || !bit_at(empty, q))
            continue;
        uint32_t qbit = 1u << q;
        if (straight_four(own | qbit, empty & ~qbit, pos, q)
            && allowed_with_stone(b, cell + k * gm_step[dir]))
            return 1;
    }
    return 0;
}

/* ---- forbidden points ------------------------------------------------------------------ */

/* Black already stands on cell. */
static int forbidden_placed(gm_board *b, int cell)
{
    int runs[GM_NDIRS], fours[GM_NDIRS], longest = 0, nfours = 0, nthrees = 0;
    for (int d = 0; d < GM_NDIRS; d++) {
        runs[d] = gm_rules_run(gm_line_bits(b, GM_BLACK, d, cell), gm_pos_of[d][cell]);
        if (runs[d] == 5)
            return GM_OK;                       /* a five wins first */
        longest = runs[d] > longest ? runs[d] : longest;
    }
    if (longest >= 6)
        return GM_ERR_OVERLINE;
    for (int d = 0; d < GM_NDIRS; d++) {
        fours[d] = gm_rules_fours(gm_line_bits(b, GM_BLACK, d, cell), gm_line_empty(b, d, cell),
                                  gm_pos_of[d][cell]);
        nfours += fours[d];
    }
    if (nfours >= 2)
        return GM_ERR_DOUBLE_FOUR;
    for (int d = 0; d < GM_NDIRS && nthrees < 2; d++)
        nthrees += fours[d] == 0 && gm_rules_three(b, cell, d);
    return nthrees >= 2 ? GM_ERR_DOUBLE_THREE : GM_OK;
}

/* Fewer than four other black stones within five points along the four lines: nothing can
   be forbidden (an overline needs five, a double-four or double-three at least four). */
static int too_sparse(const gm_board *b, int cell)
{
    int others = 0;
    for (int d = 0; d < GM_NDIRS; d++)
        others += popcount(gm_line_bits(b, GM_BLACK, d, cell) & window(gm_pos_of[d][cell] - 5, 11));
    return others < 4;
}

int gm_rules_forbidden_cell(gm_board *b, int cell)
{
    if (b->rule != GM_RENJU || b->cell[cell] != GM_EMPTY || too_sparse(b, cell))
        return GM_OK;
    gm_board_put(b, cell, GM_BLACK);
    int why = forbidden_placed(b, cell);
    gm_board_lift(b, cell);
    return why;
}

int gm_board_forbidden(gm_board *b, int x, int y)
{
    if (x < 0 || y < 0 || x >= b->size || y >= b->size)
        return GM_OK;
    return gm_rules_forbidden_cell(b, gm_cell(x, y));
}

int gm_board_forbidden_points(gm_board *b, int *cells)
{
    int n = 0;
    if (b->rule != GM_RENJU)
        return 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (gm_rules_forbidden_cell(b, gm_cell(x, y)) != GM_OK)
                cells[n++] = gm_cell(x, y);
    return n;
}

int gm_rules_has_legal_move(gm_board *b)
{
    if (b->rule != GM_RENJU || b->to_move != GM_BLACK)
        return b->nmoves < b->size * b->size;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int c = gm_cell(x, y);
            if (b->cell[c] == GM_EMPTY && gm_rules_forbidden_cell(b, c) == GM_OK)
                return 1;
        }
    return 0;
}
