/* patterns.c - the search's line-pattern codes, kept incrementally per cell and direction.
 *
 * Each on-board cell has, per direction, the key of the eight points cell-4 .. cell-1 and
 * cell+1 .. cell+4 at 2 bits each (empty, black, white, off board). A stone changes only the
 * keys of the cells within four points along its four lines (32 at most), each by one 2-bit
 * field, so gm_codes_put/lift update those keys and, through the line tables, everything derived
 * from them: the number of
 * directions with a window of four (a five may be possible) or of three (a four may be) per
 * cell, the sets of empty cells having them, the near counts and the candidate set. Nothing
 * here rescans the board; gm_codes_rebuild computes the same state from scratch (the search
 * loads a board with it, and its verify mode compares against it after every move). */
#include "gomoku.h"
#include "internal.h"

#include <string.h>

/* Bit i of a flag byte is count[i]'s and set[i]'s (GM_CODES_FIVE/THREE + colour - 1). */
enum { FIVE_B = 1, FIVE_W = 2, THREE_B = 4, THREE_W = 8 };

/* What the five-point windows through an empty cell along one direction say. */
typedef struct {
    int32_t order[2];            /* move-order score for black, for white */
    int16_t eval[2];             /* change of the evaluation when black / white stands here */
    uint8_t flags;               /* FIVE_*: a window of four of that colour and nothing else;
                                    THREE_*: a window of three (the stone may make a four) */
} line_info;

/* line_info split by use, so that the hot part stays in the caches: the flags (64 KB) are
   read for every stone's 32 neighbours, the evaluation deltas (256 KB) for the stone's own
   cell only, the order scores (512 KB) for the candidates of inner nodes (gm_codes_order). */
static uint8_t line_flags[GM_LINE_KEYS];
int32_t gm_line_order[GM_LINE_KEYS][2];
static int16_t line_eval[GM_LINE_KEYS][2];
static uint32_t spread8[256];    /* bit j of an 8-bit mask moved to bit 2j */
static plat_once line_once = PLAT_ONCE_INIT;

static const int eval_weight[6] = {0, 1, 8, 60, 400, 4000};
static const int order_attack[5] = {1, 6, 50, 400, 100000};
static const int order_defend[5] = {0, 4, 35, 300, 50000};

static int window_value(int nb, int nw)
{
    if (nb && nw)
        return 0;
    return nb ? eval_weight[nb] : -eval_weight[nw];
}

/* One window of the nine points (start st, the centre inside) added to e. */
static void line_window(line_info *e, const int *pt, int st)
{
    int nb = 0, nw = 0;
    for (int i = st; i < st + 5; i++) {
        if (pt[i] == 3)
            return;
        nb += pt[i] == GM_BLACK && i != 4;
        nw += pt[i] == GM_WHITE && i != 4;
    }
    e->order[0] += (nw ? 0 : order_attack[nb]) + (nb ? 0 : order_defend[nw]);
    e->order[1] += (nb ? 0 : order_attack[nw]) + (nw ? 0 : order_defend[nb]);
    e->eval[0] = (int16_t)(e->eval[0] + window_value(nb + 1, nw) - window_value(nb, nw));
    e->eval[1] = (int16_t)(e->eval[1] + window_value(nb, nw + 1) - window_value(nb, nw));
    e->flags |= (!nw && nb == 4 ? FIVE_B : 0) | (!nb && nw == 4 ? FIVE_W : 0)
                | (!nw && nb == 3 ? THREE_B : 0) | (!nb && nw == 3 ? THREE_W : 0);
}

static void line_table_build(void)
{
    for (int m = 0; m < 256; m++)
        for (int j = 0; j < 8; j++)
            spread8[m] |= (uint32_t)((m >> j) & 1) << (2 * j);
    for (int key = 0; key < GM_LINE_KEYS; key++) {
        int pt[9];
        for (int i = 0; i < 9; i++)
            pt[i] = i == 4 ? GM_EMPTY : (key >> (2 * (i < 4 ? i : i - 1))) & 3;
        line_info e;
        memset(&e, 0, sizeof e);
        for (int st = 0; st <= 4; st++)
            line_window(&e, pt, st);
        line_flags[key] = e.flags;
        for (int i = 0; i < 2; i++) {
            gm_line_order[key][i] = e.order[i];
            line_eval[key][i] = e.eval[i];
        }
    }
}

void gm_codes_tables_init(void)
{
    gm_tables_init();
    plat_run_once(&line_once, line_table_build);
}

/* ---- sets of cells ---------------------------------------------------------------------- */

static inline void set_to(uint64_t *set, int cell, int on)
{
    uint64_t bit = (uint64_t)1 << (cell & 63);
    set[cell >> 6] = on ? set[cell >> 6] | bit : set[cell >> 6] & ~bit;
}

/* An empty cell's membership of every set, from its counts. */
static inline void cell_sets(gm_codes *k, int cell)
{
    set_to(k->cand, cell, k->near[cell] != 0);
    for (int i = 0; i < 4; i++)
        set_to(k->set[i], cell, k->count[i][cell] != 0);
}

static inline void cell_unset(gm_codes *k, int cell)
{
    set_to(k->cand, cell, 0);
    for (int i = 0; i < 4; i++)
        set_to(k->set[i], cell, 0);
}

/* ---- from scratch --------------------------------------------------------------------- */

/* The nine bits pos-4 .. pos+4 of a line without the centre: eight bits. */
static uint32_t around8(uint32_t line, int p)
{
    uint32_t m9 = (uint32_t)(((uint64_t)line << 4) >> p) & 511u;
    return (m9 & 15u) | (m9 >> 5) << 4;
}

/* The key of the eight points around cell along d, read from the bit lines. */
static uint32_t key_read(const gm_board *b, int cell, int d)
{
    int l = gm_line_of[d][cell], p = gm_pos_of[d][cell];
    uint32_t on = around8(b->valid[d][l], p);
    return spread8[around8(b->line[0][d][l], p)] | spread8[around8(b->line[1][d][l], p)] << 1
           | spread8[~on & 255u] * 3u;
}

/* The field of the point `off` points from a cell (off = -4..-1, 1..4) in its key. */
static inline int key_shift(int off)
{
    return 2 * (off < 0 ? off + 4 : off + 3);
}

static int near_count(const gm_board *b, int cell)
{
    static const int dxy[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                  {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    int x = gm_cell_x(cell), y = gm_cell_y(cell), n = 0;
    for (int d = 0; d < 8; d++)
        for (int k = 1; k <= 2; k++) {
            int cx = x + k * dxy[d][0], cy = y + k * dxy[d][1];
            n += cx >= 0 && cy >= 0 && cx < b->size && cy < b->size
                 && b->cell[gm_cell(cx, cy)] != GM_EMPTY;
        }
    return n;
}

/* Black's minus white's sum over the on-board five-point windows holding one colour only. */
static int eval_scratch(const gm_board *b)
{
    static const int dxy[GM_NDIRS][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int e = 0, n = b->size;
    for (int c = 0; c < GM_MAX_CELLS; c++)
        for (int d = 0; d < GM_NDIRS; d++) {
            int x = gm_cell_x(c), y = gm_cell_y(c), ex = x + 4 * dxy[d][0], ey = y + 4 * dxy[d][1];
            if (x >= n || y >= n || ex < 0 || ey < 0 || ex >= n || ey >= n)
                continue;
            int cnt[3] = {0, 0, 0};
            for (int i = 0; i < 5; i++)
                cnt[b->cell[gm_cell(x + i * dxy[d][0], y + i * dxy[d][1])]]++;
            e += window_value(cnt[GM_BLACK], cnt[GM_WHITE]);
        }
    return e;
}

static void cell_derive(gm_codes *k, int cell)
{
    for (int d = 0; d < GM_NDIRS; d++) {
        uint32_t f = line_flags[k->key[d][cell]];
        for (int i = 0; i < 4; i++)
            k->count[i][cell] = (uint8_t)(k->count[i][cell] + ((f >> i) & 1));
    }
}

/* The change of the evaluation when color stands on the cell. */
int gm_codes_eval_delta(const gm_codes *k, int cell, int color)
{
    int delta = 0;
    for (int d = 0; d < GM_NDIRS; d++)
        delta += line_eval[k->key[d][cell]][color - 1];
    return delta;
}

void gm_codes_rebuild(gm_codes *k, const gm_board *b)
{
    memset(k, 0, sizeof *k);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int c = gm_cell(x, y);
            for (int d = 0; d < GM_NDIRS; d++)
                k->key[d][c] = (uint16_t)key_read(b, c, d);
            cell_derive(k, c);
            k->near[c] = (uint8_t)near_count(b, c);
            if (b->cell[c] == GM_EMPTY)
                cell_sets(k, c);
        }
    k->eval = eval_scratch(b);
}

/* ---- incremental ---------------------------------------------------------------------- */

/* The field of one neighbour's key changed from old to now: its counts and sets follow. */
static inline void key_change(gm_codes *k, const gm_board *b, int n, uint32_t old, uint32_t now)
{
    uint32_t fe = line_flags[now];
    for (uint32_t diff = line_flags[old] ^ fe; diff; diff &= diff - 1) {
        int i = __builtin_ctz(diff);
        k->count[i][n] = (uint8_t)(k->count[i][n] + ((fe >> i) & 1 ? 1 : -1));
        if (b->cell[n] == GM_EMPTY)
            set_to(k->set[i], n, k->count[i][n] != 0);
    }
}

/* The keys around cell gain (sign 1) or lose (sign -1) a stone of color; near counts too. */
static void codes_around(gm_codes *k, const gm_board *b, int cell, int color, int sign)
{
    for (int d = 0; d < GM_NDIRS; d++) {
        /* the on-board points of a line are one run of bits: offsets lo .. hi from cell */
        int p = gm_pos_of[d][cell], step = gm_step[d];
        uint32_t on = b->valid[d][gm_line_of[d][cell]];
        int lo = __builtin_ctz(on) - p, hi = 31 - __builtin_clz(on) - p;
        lo = lo < -4 ? -4 : lo;
        hi = hi > 4 ? 4 : hi;
        for (int j = lo; j <= hi; j++) {
            if (j == 0)
                continue;
            int n = cell + j * step;
            uint32_t old = k->key[d][n], field = (uint32_t)color << key_shift(-j);
            uint32_t now = sign > 0 ? old | field : old & ~field;
            k->key[d][n] = (uint16_t)now;
            key_change(k, b, n, old, now);
        }
        for (int j = lo < -2 ? -2 : lo; j <= (hi > 2 ? 2 : hi); j++) {
            int n = cell + j * step;
            if (j == 0)
                continue;
            k->near[n] = (uint8_t)(k->near[n] + sign);
            if (b->cell[n] == GM_EMPTY)
                set_to(k->cand, n, k->near[n] != 0);
        }
    }
}

int gm_codes_put(gm_codes *k, const gm_board *b, int cell, int color)
{
    int delta = gm_codes_eval_delta(k, cell, color);
    k->eval += delta;
    cell_unset(k, cell);
    codes_around(k, b, cell, color, 1);
    return delta;
}

void gm_codes_lift(gm_codes *k, const gm_board *b, int cell, int color)
{
    codes_around(k, b, cell, color, -1);
    k->eval -= gm_codes_eval_delta(k, cell, color);
    cell_sets(k, cell);
}

int gm_codes_equal(const gm_codes *a, const gm_codes *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}
