/* patterns.c - the search's line-pattern codes, kept incrementally per cell and direction.
 *
 * Each on-board cell has, per direction, the key of the eight points cell-4 .. cell-1 and
 * cell+1 .. cell+4 at 2 bits each (empty, black, white, off board). A stone changes only the
 * keys of the cells within four points along its four lines (32 at most), each by one 2-bit
 * field, so gm_codes_put/lift update those keys. The flags (a window of four: a five may be
 * possible; of three: a four may be) of the empty points of the stone's four lines are
 * recomputed bit-parallel from the bit lines, both colours at once (gm_line_masks), and kept
 * per line: a cell's flag is the OR of its four lines' bits (gm_codes_has), and the cells of
 * a flag are gathered from the lines that have one (gm_codes_cells) when the search walks
 * them. Nothing here rescans the board; gm_codes_rebuild computes the same state from scratch
 * (the search loads a board with it, and its verify mode compares against it after every
 * move). The candidates (empty points near a stone) are not kept: a node that needs them
 * reads them from the row bit lines (gm_codes_cand_rows). */
#include "gomoku.h"
#include "internal.h"

#include <stddef.h>
#include <string.h>

/* Bit i of a flag byte is flag i (GM_CODES_FIVE/THREE + colour - 1). */
enum { FIVE_B = 1, FIVE_W = 2, THREE_B = 4, THREE_W = 8 };

/* What the five-point windows through an empty cell along one direction say. */
typedef struct {
    int32_t order[2];            /* move-order score for black, for white */
    int16_t eval[2];             /* change of the evaluation when black / white stands here */
    uint8_t flags;               /* FIVE_*: a window of four of that colour and nothing else;
                                    THREE_*: a window of three (the stone may make a four) */
} line_info;

/* line_info split by use: the flags (64 KB) only by gm_codes_rebuild (the incremental path
   computes them bit-parallel, gm_line_masks, and verify mode compares the two), the evaluation
   deltas (256 KB) for the stone's own cell, the order scores (512 KB) for the candidates of
   inner nodes (gm_codes_order). */
static uint8_t line_flags[GM_LINE_KEYS];
int32_t gm_line_order[GM_LINE_KEYS][2];
static int16_t line_eval[GM_LINE_KEYS][2];
static uint32_t spread8[256];    /* bit j of an 8-bit mask moved to bit 2j */
uint16_t gm_key_slot[GM_NDIRS][GM_MAX_CELLS];
/* The fields a stone of colour c sets in the keys of the four line points before it (slots
   pos - 4 .. pos - 1: [c - 1][0]) and after it ([c - 1][1]), four 16-bit keys in memory order
   (built through memcpy, so for any byte order), for each pattern of those points that are on
   the board (bit j: the j-th of the four). */
static uint64_t key_fields[2][2][16];
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

/* The field of the point `off` points from a cell (off = -4..-1, 1..4) in its key. */
static inline int key_shift(int off)
{
    return 2 * (off < 0 ? off + 4 : off + 3);
}

static void key_fields_build(void)
{
    for (int i = 0; i < GM_MAX_CELLS; i++)
        for (int d = 0; d < GM_NDIRS; d++)
            gm_key_slot[d][i] = (uint16_t)(gm_line_of[d][i] * GM_KEY_SLOTS + gm_pos_of[d][i] + 4);
    for (int c = 0; c < 2; c++)
        for (int half = 0; half < 2; half++)
            for (int on = 0; on < 16; on++) {
                uint16_t lane[4];
                for (int j = 0; j < 4; j++) {
                    int off = half ? -(j + 1) : 4 - j;   /* the stone seen from that point */
                    lane[j] = (on >> j) & 1 ? (uint16_t)((c + 1) << key_shift(off)) : 0;
                }
                memcpy(&key_fields[c][half][on], lane, sizeof lane);
            }
}

static void line_table_build(void)
{
    key_fields_build();
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

/* ---- the flags of a line --------------------------------------------------------------- */

/* Line l of direction d gets the flag masks five and three. */
static inline void line_set(gm_codes *k, int d, int l, uint64_t five, uint64_t three)
{
    uint64_t bit = (uint64_t)1 << l;
    k->mask[d][l][0] = five;
    k->mask[d][l][1] = three;
    k->lines[0][d] = (k->lines[0][d] & ~bit) | (five ? bit : 0);
    k->lines[1][d] = (k->lines[1][d] & ~bit) | (three ? bit : 0);
}

/* The cells whose flags under `keep` (a line mask's bits) are set, from the lines with a
   flag of that kind. */
static void cells_of(const gm_codes *k, int kind, uint64_t keep, uint64_t *set)
{
    memset(set, 0, GM_SET_WORDS * sizeof *set);
    for (int d = 0; d < GM_NDIRS; d++)
        for (uint64_t m = k->lines[kind][d]; m; m &= m - 1) {
            int l = __builtin_ctzll(m), base = gm_line_base[d][l], step = gm_step[d];
            uint64_t flags = k->mask[d][l][kind] & keep;
            for (uint32_t bits = (uint32_t)flags | (uint32_t)(flags >> 32); bits; bits &= bits - 1) {
                int n = base + __builtin_ctz(bits) * step;
                set[n >> 6] |= (uint64_t)1 << (n & 63);
            }
        }
}

/* The cells with flag i, as a bit set (bit n of word n / 64), from the lines that have one. */
void gm_codes_cells(const gm_codes *k, int i, uint64_t *set)
{
    cells_of(k, i >> 1, (i & 1) ? ~(uint64_t)0 << 32 : 0xffffffffu, set);
}

void gm_codes_cells_either(const gm_codes *k, int kind, uint64_t *set)
{
    cells_of(k, kind >> 1, ~(uint64_t)0, set);
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

/* The change of the evaluation when color stands on the cell. */
int gm_codes_eval_delta(const gm_codes *k, int cell, int color)
{
    int delta = 0;
    for (int d = 0; d < GM_NDIRS; d++)
        delta += line_eval[gm_codes_key(k, d, cell)][color - 1];
    return delta;
}

/* The flags of an empty cell from its keys and the line tables (not from gm_line_masks, so that
   verify mode checks gm_line_masks against line_window's definition too). */
static void cell_flags(gm_codes *k, int cell)
{
    for (int d = 0; d < GM_NDIRS; d++) {
        uint32_t f = line_flags[gm_codes_key(k, d, cell)];
        uint64_t *m = k->mask[d][gm_line_of[d][cell]];
        int p = gm_pos_of[d][cell];
        for (int i = 0; i < 4; i++)
            if ((f >> i) & 1)
                m[i >> 1] |= (uint64_t)1 << (p + 32 * (i & 1));
    }
}

void gm_codes_rebuild(gm_codes *k, const gm_board *b)
{
    memset(k, 0, offsetof(gm_codes, undo));
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int c = gm_cell(x, y);
            for (int d = 0; d < GM_NDIRS; d++)
                k->key[d][gm_key_slot[d][c]] = (uint16_t)key_read(b, c, d);
            if (b->cell[c] == GM_EMPTY)
                cell_flags(k, c);
        }
    for (int d = 0; d < GM_NDIRS; d++)         /* (not line_set's: verify mode checks it) */
        for (int l = 0; l < GM_MAX_LINES; l++)
            for (int kind = 0; kind < 2; kind++)
                k->lines[kind][d] |= (uint64_t)(k->mask[d][l][kind] != 0) << l;
    k->eval = eval_scratch(b);
}

/* ---- incremental ---------------------------------------------------------------------- */

/* The keys of the 8 points around cell along d gain a stone of color (key_fields: four at a
   time); the words before are kept in *saved. */
static inline void keys_around(gm_codes *k, const gm_board *b, int d, int cell, int color,
                               uint64_t *saved)
{
    int p = gm_pos_of[d][cell], l = gm_line_of[d][cell];
    uint32_t on = around8(b->valid[d][l], p);          /* which of the 8 points are on board */
    uint16_t *kp = &k->key[d][l * GM_KEY_SLOTS + p];  /* slot p: the point p - 4 */
    uint64_t before, after;
    memcpy(&before, kp, sizeof before);
    memcpy(&after, kp + 5, sizeof after);
    saved[0] = before;
    saved[1] = after;
    before |= key_fields[color - 1][0][on & 15];
    after |= key_fields[color - 1][1][on >> 4];
    memcpy(kp, &before, sizeof before);
    memcpy(kp + 5, &after, sizeof after);
}

/* The flags of the stone's four lines recomputed from the bit lines with the stone (the board
   gets it after the codes), the four lines side by side (a loop the compiler may vectorize);
   the masks before are kept in u. */
static inline void flags_put(gm_codes *k, const gm_board *b, int cell, int color,
                             gm_codes_undo *u)
{
    uint32_t bl[GM_NDIRS], wh[GM_NDIRS], on[GM_NDIRS];
    uint64_t five[GM_NDIRS], three[GM_NDIRS];
    for (int d = 0; d < GM_NDIRS; d++) {
        int l = gm_line_of[d][cell];
        uint32_t stone = 1u << gm_pos_of[d][cell];
        u->mask[d][0] = k->mask[d][l][0];
        u->mask[d][1] = k->mask[d][l][1];
        bl[d] = b->line[0][d][l] | (color == GM_BLACK ? stone : 0);
        wh[d] = b->line[1][d][l] | (color == GM_WHITE ? stone : 0);
        on[d] = b->valid[d][l];
    }
    for (int d = 0; d < GM_NDIRS; d++)
        gm_line_masks(bl[d], wh[d], on[d], &five[d], &three[d]);
    for (int d = 0; d < GM_NDIRS; d++)
        line_set(k, d, gm_line_of[d][cell], five[d], three[d]);
}

/* A stone put: its keys and the evaluation, then its lines' flags; what it changes is kept
   in undo[nmoves]. */
int gm_codes_put(gm_codes *k, const gm_board *b, int cell, int color)
{
    int delta = gm_codes_eval_delta(k, cell, color);
    gm_codes_undo *u = &k->undo[b->nmoves];
    u->eval = k->eval;
    k->eval += delta;
    for (int d = 0; d < GM_NDIRS; d++)
        keys_around(k, b, d, cell, color, u->key[d]);
    flags_put(k, b, cell, color, u);
    return delta;
}

/* A stone lifted (the board has lost it already): everything its put changed, given back. */
void gm_codes_lift(gm_codes *k, const gm_board *b, int cell, int color)
{
    gm_codes_undo *u = &k->undo[b->nmoves];
    (void)color;
    for (int d = 0; d < GM_NDIRS; d++) {
        int l = gm_line_of[d][cell];
        uint16_t *kp = &k->key[d][l * GM_KEY_SLOTS + gm_pos_of[d][cell]];
        memcpy(kp, &u->key[d][0], sizeof u->key[d][0]);
        memcpy(kp + 5, &u->key[d][1], sizeof u->key[d][1]);
        line_set(k, d, l, u->mask[d][0], u->mask[d][1]);
    }
    k->eval = u->eval;
}

/* The VCF's stones: the flags only (it reads no key and no evaluation, which stay as they
   were until the matching lift_flags, so they are right again once the VCF is over). */
void gm_codes_put_flags(gm_codes *k, const gm_board *b, int cell, int color)
{
    flags_put(k, b, cell, color, &k->undo[b->nmoves]);
}

void gm_codes_lift_flags(gm_codes *k, const gm_board *b, int cell)
{
    gm_codes_undo *u = &k->undo[b->nmoves];
    for (int d = 0; d < GM_NDIRS; d++)
        line_set(k, d, gm_line_of[d][cell], u->mask[d][0], u->mask[d][1]);
}

int gm_codes_flags_equal(const gm_codes *a, const gm_codes *b)
{
    return memcmp(a->mask, b->mask, sizeof a->mask) == 0
           && memcmp(a->lines, b->lines, sizeof a->lines) == 0;
}

/* The points near the stones of rows y-2 .. y+2 (s: row y; n1: rows y-1 and y+1; n2: rows
   y-2 and y+2): a stone within two points along one of the eight directions. The one
   definition of a candidate, for a whole row and for one cell. */
static inline uint32_t near_rows(uint32_t s, uint32_t n1, uint32_t n2)
{
    return s << 1 | s >> 1 | s << 2 | s >> 2 | n1 | n1 << 1 | n1 >> 1 | n2 | n2 << 2 | n2 >> 2;
}

static inline uint32_t stones_of_row(const gm_board *b, int y)
{
    return y >= 0 && y < b->size ? b->line[0][GM_DIR_ROW][y] | b->line[1][GM_DIR_ROW][y] : 0;
}

/* The candidate points of every row (cand[y], bit x for the point (x, y)): empty, with a stone
   within two points along one of the eight directions (the rows above and below, shifted). */
void gm_codes_cand_rows(const gm_board *b, uint32_t *cand)
{
    uint32_t occ[GM_MAX_SIZE + 4] = {0};          /* occ[y + 2]: the stones of row y */
    for (int y = 0; y < b->size; y++)
        occ[y + 2] = stones_of_row(b, y);
    for (int y = 0; y < b->size; y++) {
        uint32_t s = occ[y + 2];
        cand[y] = near_rows(s, occ[y + 1] | occ[y + 3], occ[y] | occ[y + 4])
                  & b->valid[GM_DIR_ROW][y] & ~s;
    }
}

int gm_codes_near_stone(const gm_board *b, int cell)
{
    int x = gm_cell_x(cell), y = gm_cell_y(cell);
    uint32_t near = near_rows(stones_of_row(b, y),
                              stones_of_row(b, y - 1) | stones_of_row(b, y + 1),
                              stones_of_row(b, y - 2) | stones_of_row(b, y + 2));
    return (near >> x) & 1;
}

int gm_codes_equal(const gm_codes *a, const gm_codes *b)
{
    return memcmp(a, b, offsetof(gm_codes, undo)) == 0;
}
