/* shape.c - learned move priors: each legal move is described by its 3x3 shape (with atari
   bits), a few small tactical classes and the largest known pattern of stones around it; a
   table of strengths learned from game records (generalized Bradley-Terry "gammas", fitted by
   engines/go/learn_priors.py) turns those into a relative probability that a good player
   chooses the move. */
#include "go.h"
#include "internal.h"
#include "shape_gammas.h"

#include <string.h>

/* Cells around the move in key order: NW N NE W E SW S SE. */
static const int CELL_DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, CELL_DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

uint32_t go_shape_key(const go_board *b, int color, int point)
{
    int s = b->stride;
    uint32_t key = 0;
    for (int i = 0; i < 8; i++) {
        int q = point + CELL_DX[i] + CELL_DY[i] * s, c = b->color[q], v;
        if (c == GO_EMPTY)
            v = 0;
        else if (c == GO_BORDER)
            v = 3;
        else
            v = (c == color ? 1 : 2) | ((CELL_DX[i] == 0 || CELL_DY[i] == 0) && go_chain_in_atari(b, b->chain[q]) ? 4 : 0);
        key |= (uint32_t)v << (3 * i);
    }
    return key;
}

/* An offset seen through symmetry sym (bit 0 transposes, bit 1 flips rows, bit 2 flips columns). */
static void sym_apply(int sym, int *dx, int *dy)
{
    int t;
    if (sym & 1) { t = *dx; *dx = *dy; *dy = t; }
    if (sym & 2) *dy = -*dy;
    if (sym & 4) *dx = -*dx;
}

/* The key seen after symmetry sym. */
static uint32_t shape_transform(uint32_t key, int sym)
{
    uint32_t out = 0;
    for (int i = 0; i < 8; i++) {
        int dx = CELL_DX[i], dy = CELL_DY[i];
        sym_apply(sym, &dx, &dy);
        int j = 0;
        while (CELL_DX[j] != dx || CELL_DY[j] != dy)
            j++;
        out |= ((key >> (3 * i)) & 7u) << (3 * j);
    }
    return out;
}

uint32_t go_shape_canonical(uint32_t key)
{
    uint32_t best = key;
    for (int sym = 1; sym < 8; sym++) {
        uint32_t k = shape_transform(key, sym);
        if (k < best)
            best = k;
    }
    return best;
}

void go_move_classes(const go_board *b, int color, int point, const uint8_t *marks, uint8_t *cls)
{
    int f = go_move_features(b, color, point), s = b->stride, own = 0, libs[3];
    int nb[4] = {point - 1, point + 1, point - s, point + s};
    memset(cls, 0, GO_CLASS_GROUPS);
    cls[GO_CLASS_CAPTURE] = f & GO_F_CAPTURE_BIG ? 2 : f & GO_F_CAPTURE ? 1 : 0;
    cls[GO_CLASS_ESCAPE] = f & GO_F_LADDER ? 2 : f & GO_F_ESCAPE ? 1 : 0;
    for (int i = 0; i < 4; i++) {
        own |= b->color[nb[i]] == color;
        if (b->color[nb[i]] == go_other(color) && b->plib[b->chain[nb[i]]] <= 8 &&
            go_board_libs(b, nb[i], 3, libs) == 2)   /* two liberties: at most 8 pseudo */
            cls[GO_CLASS_ATARI] = 1;
    }
    if (f & GO_F_SELF_ATARI)
        cls[GO_CLASS_SELF_ATARI] = own ? 2 : 1;   /* a chain, or a lone stone */
    cls[GO_CLASS_MARK] = marks ? (marks[point] & 3) : 0;
    cls[GO_CLASS_OWN_EYE] = (f & GO_F_OWN_EYE) != 0;
    int x, y;
    go_xy(b, point, &x, &y);
    for (int k = 0; k < 2; k++) {
        int m = k ? b->last_move2 : b->last_move, d = 0;
        if (m > 0) {
            int mx, my;
            go_xy(b, m, &mx, &my);
            d = (x > mx ? x - mx : mx - x) + (y > my ? y - my : my - y);
            d = d > 4 ? 0 : d;
        }
        cls[k ? GO_CLASS_DIST2 : GO_CLASS_DIST1] = (uint8_t)d;
    }
    int line = x < y ? x : y, far = b->size - 1 - (x > y ? x : y);
    line = far < line ? far : line;
    cls[GO_CLASS_LINE] = (uint8_t)(line > 3 ? 3 : line);
}

/* ---- Large patterns ------------------------------------------------------------------------- */

/* A large pattern is what lies on every cell around the move (own stone, enemy stone, empty, off
   the board) out to a "gridcular" distance |dx| + |dy| + max(|dx|, |dy|), whose rings are nearly
   round (Pachi's spatial patterns use the same metric). Size i reaches distance PAT_MIN_DIST + i:
   from 12 cells (the 3x3 square and the four points two steps away) to 60. A pattern is known by
   a Zobrist hash of its occupied cells, plus a key per size so that an empty outer ring does not
   make two sizes one pattern. */
#define PAT_MIN_DIST 4
#define PAT_MAX_DIST (PAT_MIN_DIST + GO_PATTERN_SIZES - 1)
#define PAT_REACH 4      /* the farthest |dx| within PAT_MAX_DIST 9: (4, 1) */
#define PAT_CELLS 60     /* offsets at distances 2..9 */
#define PAT_SEED 0x9a77e2115ULL

static int pat_dx[PAT_CELLS], pat_dy[PAT_CELLS];
static int pat_end[GO_PATTERN_SIZES];                 /* size i: cells [0, pat_end[i]) */
static uint8_t pat_sym[GO_PATTERN_SYMS][PAT_CELLS];   /* cell k seen through a symmetry */
static uint64_t pat_key[PAT_CELLS][3], pat_size_key[GO_PATTERN_SIZES];
static uint64_t pat_ring[GO_PATTERN_SIZES];           /* cells of size i, not of size i - 1 */
/* Which cells lie off the board depends only on how far the move is from each edge, counted up
   to PAT_REACH: each of those edge classes has its mask of cells on the board and, per size, the
   hash of its cells off the board, so the probe reads only cells on the board. */
#define PAT_EDGE_CLASSES ((PAT_REACH + 1) * (PAT_REACH + 1) * (PAT_REACH + 1) * (PAT_REACH + 1))
static uint64_t pat_onboard[PAT_EDGE_CLASSES], pat_offboard[PAT_EDGE_CLASSES][GO_PATTERN_SIZES];

static int reach(int d) { return d < PAT_REACH ? d : PAT_REACH; }

static int edge_class(int left, int right, int top, int bottom)
{
    return ((reach(left) * (PAT_REACH + 1) + reach(right)) * (PAT_REACH + 1) + reach(top)) *
               (PAT_REACH + 1) + reach(bottom);
}

static int gridcular(int dx, int dy)
{
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    return dx + dy + (dx > dy ? dx : dy);
}

/* Fills the tables above; run once by go_shape_init, which every reader calls first. */
static void pat_init(void)
{
    int n = 0;
    for (int d = 2; d <= PAT_MAX_DIST; d++) {
        for (int dy = -PAT_REACH; dy <= PAT_REACH; dy++)
            for (int dx = -PAT_REACH; dx <= PAT_REACH; dx++)
                if (gridcular(dx, dy) == d && n < PAT_CELLS) {
                    pat_dx[n] = dx;
                    pat_dy[n] = dy;
                    n++;
                }
        if (d >= PAT_MIN_DIST)
            pat_end[d - PAT_MIN_DIST] = n;
    }
    for (int s = 0; s < GO_PATTERN_SYMS; s++)
        for (int k = 0; k < n; k++) {
            int dx = pat_dx[k], dy = pat_dy[k], j = 0;
            sym_apply(s, &dx, &dy);
            while (pat_dx[j] != dx || pat_dy[j] != dy)
                j++;
            pat_sym[s][k] = (uint8_t)j;
        }
    uint64_t st = PAT_SEED;
    for (int k = 0; k < PAT_CELLS; k++)
        for (int v = 0; v < 3; v++)
            pat_key[k][v] = go_splitmix64(&st);
    for (int i = 0; i < GO_PATTERN_SIZES; i++)
        pat_size_key[i] = go_splitmix64(&st);
    for (int i = 0; i < GO_PATTERN_SIZES; i++)
        for (int k = i ? pat_end[i - 1] : 0; k < pat_end[i]; k++)
            pat_ring[i] |= 1ULL << k;
    for (int l = 0; l <= PAT_REACH; l++)
        for (int r = 0; r <= PAT_REACH; r++)
            for (int t = 0; t <= PAT_REACH; t++)
                for (int bo = 0; bo <= PAT_REACH; bo++) {
                    int e = edge_class(l, r, t, bo);
                    uint64_t off = 0;
                    for (int i = 0, k = 0; i < GO_PATTERN_SIZES; i++) {
                        for (; k < pat_end[i]; k++)
                            if (pat_dx[k] < -l || pat_dx[k] > r || pat_dy[k] < -t || pat_dy[k] > bo)
                                off ^= pat_key[k][2];
                            else
                                pat_onboard[e] |= 1ULL << k;
                        pat_offboard[e][i] = off;
                    }
                }
}

/* The colours as color sees them (empty, own, enemy, off) into rel; returns the edge class. */
static int pattern_view(const go_board *b, int color, int point, uint8_t rel[4])
{
    int x, y;
    rel[GO_EMPTY] = 0;
    rel[color] = 1;
    rel[go_other(color)] = 2;
    rel[GO_BORDER] = 3;
    go_xy(b, point, &x, &y);
    return edge_class(x, b->size - 1 - x, y, b->size - 1 - y);
}

void go_pattern_hashes(const go_board *b, int color, int point, int nsym, uint64_t *out)
{
    uint8_t rel[4], v[PAT_CELLS];
    int e = pattern_view(b, color, point, rel);
    for (int k = 0; k < PAT_CELLS; k++)
        v[k] = pat_onboard[e] >> k & 1 ? rel[b->color[point + pat_dx[k] + pat_dy[k] * b->stride]] : 3;
    for (int s = 0; s < nsym; s++) {
        uint64_t h = 0;
        for (int i = 0, k = 0; i < GO_PATTERN_SIZES; i++) {
            for (; k < pat_end[i]; k++)
                if (v[k])
                    h ^= pat_key[pat_sym[s][k]][v[k] - 1];
            out[s * GO_PATTERN_SIZES + i] = h ^ pat_size_key[i];
        }
    }
}

uint64_t go_pattern_fingerprint(void)
{
    go_shape_init();
    uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-style fold: order, offsets and keys all count */
    for (int k = 0; k < PAT_CELLS; k++)
        h = (h ^ pat_key[k][0] ^ (pat_key[k][1] << 1) ^ (pat_key[k][2] << 2) ^
             (uint64_t)((pat_dx[k] + 8) * 16 + pat_dy[k] + 8)) * 0x100000001b3ULL;
    for (int i = 0; i < GO_PATTERN_SIZES; i++)
        h = (h ^ pat_size_key[i] ^ (uint64_t)pat_end[i]) * 0x100000001b3ULL;
    return h;
}

/* ---- The learned tables, expanded to every symmetric variant for one probe per move -------- */

#define SHAPE_HASH_BITS 16
#define SHAPE_HASH (1u << SHAPE_HASH_BITS)
static uint32_t hash_key[SHAPE_HASH];   /* key + 1; 0 marks a free slot */
static float hash_gamma[SHAPE_HASH];
static plat_once shape_once = PLAT_ONCE_INIT;
#define PATTERN_HASH (1u << PATTERN_HASH_BITS)
static uint64_t pattern_key[PATTERN_HASH];      /* a pattern's hash (0 marks a free slot) */
static float pattern_value[PATTERN_HASH];

static inline uint32_t slot_of(uint32_t key) { return (key * 2654435761u) >> (32 - SHAPE_HASH_BITS); }
static inline uint32_t pattern_slot(uint64_t h) { return (uint32_t)(h >> (64 - PATTERN_HASH_BITS)); }

static void shape_init(void)
{
    pat_init();
    for (unsigned i = 0; i < sizeof SHAPE_KEYS / sizeof SHAPE_KEYS[0]; i++)
        for (int sym = 0; sym < 8; sym++) {
            uint32_t k = shape_transform(SHAPE_KEYS[i], sym), h = slot_of(k);
            while (hash_key[h] && hash_key[h] != k + 1)
                h = (h + 1) & (SHAPE_HASH - 1);
            hash_key[h] = k + 1;
            hash_gamma[h] = SHAPE_GAMMAS[i];
        }
    /* The generator lists every symmetric variant of each pattern (a hash cannot be turned). */
    for (int i = 0; i < PATTERN_COUNT; i++) {
        uint32_t h = pattern_slot(PATTERN_HASHES[i]);
        while (pattern_key[h] && pattern_key[h] != PATTERN_HASHES[i])
            h = (h + 1) & (PATTERN_HASH - 1);
        pattern_key[h] = PATTERN_HASHES[i];
        pattern_value[h] = PATTERN_GAMMAS[i];
    }
}

/* The gamma of the largest rated pattern around the move; PATTERN_GAMMA_NONE when none is, 1 on
   a board of another size than the table's. The rated patterns are those chosen often enough,
   so each one's smaller sizes are rated too: the probe grows the pattern ring by ring (as
   go_pattern_hashes does, but reading only the cells on the board) and stops at the first size
   not rated. */
static float pattern_gamma(const go_board *b, int color, int point)
{
    if (!PATTERN_COUNT || (PATTERN_BOARD_SIZE && b->size != PATTERN_BOARD_SIZE))
        return 1.0f;   /* patterns near the edges of one board size do not carry to another */
    uint8_t rel[4];
    int e = pattern_view(b, color, point, rel);
    uint64_t h = 0;
    float g = PATTERN_GAMMA_NONE;
    for (int i = 0; i < GO_PATTERN_SIZES; i++) {
        for (uint64_t m = pat_onboard[e] & pat_ring[i]; m; m &= m - 1) {
            int k = __builtin_ctzll(m), c = rel[b->color[point + pat_dx[k] + pat_dy[k] * b->stride]];
            if (c)
                h ^= pat_key[k][c - 1];
        }
        uint64_t key = h ^ pat_offboard[e][i] ^ pat_size_key[i];
        uint32_t j = pattern_slot(key);
        while (pattern_key[j] && pattern_key[j] != key)
            j = (j + 1) & (PATTERN_HASH - 1);
        if (!pattern_key[j])
            break;
        g = pattern_value[j];
    }
    return g;
}

void go_shape_init(void) { plat_run_once(&shape_once, shape_init); }

float go_move_gamma(const go_board *b, int color, int point, const uint8_t *marks)
{
    uint8_t cls[GO_CLASS_GROUPS];
    uint32_t key = go_shape_key(b, color, point), h = slot_of(key);
    float g = SHAPE_GAMMA_RARE;
    while (hash_key[h]) {
        if (hash_key[h] == key + 1) {
            g = hash_gamma[h];
            break;
        }
        h = (h + 1) & (SHAPE_HASH - 1);
    }
    go_move_classes(b, color, point, marks, cls);
    for (int k = 0; k < GO_CLASS_GROUPS; k++)
        g *= CLASS_GAMMAS[k][cls[k]];
    return g * pattern_gamma(b, color, point);
}
