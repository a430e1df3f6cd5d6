/* internal.h - helpers shared between the Quoridor core's files (not part of the public API,
   not seen by the binding; inspect.c may use them to expose a view for tests). */
#ifndef QR_INTERNAL_H
#define QR_INTERNAL_H

#include "quoridor.h"
#include "core_platform.h" /* once and the clock: the native/wasm seam */

/* ---- Cell sets (qr_bb) ------------------------------------------------------------------ */

static inline qr_bb bb_or(qr_bb a, qr_bb b) { return (qr_bb){{a.w[0] | b.w[0], a.w[1] | b.w[1]}}; }
static inline qr_bb bb_and(qr_bb a, qr_bb b) { return (qr_bb){{a.w[0] & b.w[0], a.w[1] & b.w[1]}}; }
static inline qr_bb bb_andn(qr_bb a, qr_bb b) { return (qr_bb){{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]}}; }
static inline int bb_any(qr_bb a) { return (a.w[0] | a.w[1]) != 0; }
static inline int bb_test(qr_bb a, int i) { return (int)((a.w[i >> 6] >> (i & 63)) & 1); }
static inline void bb_flip(qr_bb *a, int i) { a->w[i >> 6] ^= 1ULL << (i & 63); }
static inline int bb_count(qr_bb a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }
static inline qr_bb bb_cell(int i) { qr_bb a = {{0, 0}}; bb_flip(&a, i); return a; }

/* a moved up by k bits (0 < k < 64). */
static inline qr_bb bb_shl(qr_bb a, int k)
{
    return (qr_bb){{a.w[0] << k, (a.w[1] << k) | (a.w[0] >> (64 - k))}};
}

/* a moved down by k bits (0 < k < 64). */
static inline qr_bb bb_shr(qr_bb a, int k)
{
    return (qr_bb){{(a.w[0] >> k) | (a.w[1] << (64 - k)), a.w[1] >> k}};
}

/* Lowest cell of a non-empty set. */
static inline int bb_lowest(qr_bb a)
{
    return a.w[0] ? __builtin_ctzll(a.w[0]) : 64 + __builtin_ctzll(a.w[1]);
}

/* ---- Geometry of one size (set up once for every size) ---------------------------------- */

typedef struct {
    int n, m, cells;              /* squares per side, slots per side (n - 1), n * n */
    qr_bb all, goal[2];           /* every cell; the goal row of each player */
    uint64_t slots;               /* every slot */
    uint64_t scol_lo[3], scol_hi[3]; /* slots with x < k, with x >= m - k (k = 1, 2) */
    uint64_t near[QR_MAX_CELLS];  /* slots touching a square a king step from the cell */
    qr_bb wall_cells[2][QR_MAX_SLOTS]; /* the two cells a wall closes: north sides (h), east (v) */
    uint64_t zpawn[2][QR_MAX_CELLS], zwall[2][QR_MAX_SLOTS]; /* keys by local index */
    uint64_t zto, zleft[2][QR_MAX_WALLS + 1];
} qr_geom;

/* The table of an odd size in QR_MIN_SIZE..QR_MAX_SIZE (set up on first use). */
const qr_geom *qr_geom_of(int size);

/* The tables of b's size. */
static inline const qr_geom *qr_geom_b(const qr_board *b) { return (const qr_geom *)b->geom; }

/* Slot mask moved by (dx, dy) slots, dropping what leaves the board (|dx|, |dy| <= 2). */
static inline uint64_t qr_slots_shift(const qr_geom *g, uint64_t s, int dx, int dy)
{
    if (dx > 0)
        s = (s & ~g->scol_hi[dx]) << dx;
    else if (dx < 0)
        s = (s & ~g->scol_lo[-dx]) >> -dx;
    if (dy > 0)
        s <<= dy * g->m;
    else if (dy < 0)
        s >>= -dy * g->m;
    return s & g->slots;
}

/* ---- Walls (path.c) ---------------------------------------------------------------------- */

/* Slots where a wall of that orientation would overlap a parallel wall of b. */
uint64_t qr_walls_overlapped(const qr_board *b, int vertical);
/* Slots where a wall of that orientation would overlap or cross a wall of b. */
uint64_t qr_walls_forbidden(const qr_board *b, int vertical);
/* Masks of the slots whose wall of that orientation touches something at its first end (low
   x or y), its second end and its middle; with_edge counts the board edge as something. */
void qr_walls_contacts(const qr_board *b, int vertical, int with_edge, uint64_t out[3]);
/* Slots of that orientation whose wall touches edge or walls at two or more contact points:
   the only ones that can cut a path. */
uint64_t qr_walls_risky(const qr_board *b, int vertical);
/* Would a (non-overlapping) wall at slot leave both pawns a path? No shortcut. */
/* The open grooves (east and north) once the wall at slot is placed. */
void qr_open_after_wall(const qr_board *b, int vertical, int slot, qr_bb *oe, qr_bb *on);
int qr_wall_keeps_paths(const qr_board *b, int vertical, int slot);

/* ---- Paths (path.c) ---------------------------------------------------------------------- */

/* Cells one step from the set s through open grooves. */
static inline qr_bb qr_step(const qr_geom *g, qr_bb s, qr_bb open_e, qr_bb open_n)
{
    qr_bb e = bb_shl(bb_and(s, open_e), 1), n = bb_shl(bb_and(s, open_n), g->n);
    qr_bb west = bb_and(bb_shr(s, 1), open_e);          /* cells whose east step leads into s */
    qr_bb south = bb_and(bb_shr(s, g->n), open_n);
    return bb_or(bb_or(e, n), bb_or(west, south));
}

/* Steps from cell to the nearest cell of goal through the open grooves, -1 if none. */
int qr_path_bfs(const qr_geom *g, qr_bb open_e, qr_bb open_n, int cell, qr_bb goal);
/* reach[k] = cells at most k steps from player's goal row on b; returns the number of
   layers filled (the last one is the whole reachable set). reach needs QR_MAX_CELLS. */
int qr_path_layers(const qr_board *b, int player, qr_bb *reach);

/* ---- Board (board.c) --------------------------------------------------------------------- */

/* Destinations of the side to move's pawn. */
qr_bb qr_pawn_dests(const qr_board *b);
/* 1 when move is a wall code of b's size; its orientation and slot. */
int qr_wall_decode(const qr_board *b, int move, int *vertical, int *slot);
/* qr_board_check with the path check always (full != 0) or only for risky walls. */
int qr_check(const qr_board *b, int move, int full);

/* ---- Shared by the searches (search.c) ------------------------------------------------- */

/* A generated move with its ordering score and both path lengths after it. */
typedef struct {
    int move, order;
    int d[2];
} qr_gen_move;

/* Monotonic seconds, or -1 where there is no clock (bare wasm): time budgets are then ignored
   and only node, depth and playout limits apply. The core's one platform function. */
double qr_search_clock(void);
/* The side to move's pawn moves (d: both path lengths now); order favours path-shortening
   steps (3 << 20 - new length), others -new length. Returns the count (<= 5). */
int qr_search_gen_pawns(const qr_board *b, const int d[2], qr_gen_move *list);
/* Both players' shortest paths on a board, which the wall generators read: the lengths, the
   squares on some shortest path, and the steps between those squares (steps[p][0]: the cells
   whose north step lies on one of p's shortest paths, steps[p][1]: east). A wall lengthens
   p's path only if it closes one of p's steps, so the generators search a path only for the
   walls that do. One set serves every generator of one position, for either side to move. */
typedef struct {
    int d[2];
    qr_bb cells[2], steps[2][2];
} qr_gen_paths;

/* The paths of b, whose path lengths are d. */
void qr_search_gen_paths(const qr_board *b, const int d[2], qr_gen_paths *out);
/* Walls of the side to move touching a square of one of the opponent's shortest paths and
   lengthening it, best (opponent's gain - own gain) first, at most limit (list needs room
   for 2 * QR_MAX_SLOTS). Order is (1 << 20) + 64 * impact - own new length. */
int qr_search_gen_walls(const qr_board *b, const qr_gen_paths *paths, qr_gen_move *list, int limit);

/* The threats against b's side to move: the other side's walls as qr_search_gen_walls yields
   them for its move, all of them (list needs room for 2 * QR_MAX_SLOTS); *other is b with the
   other side to move, the board their gains are seen from (qr_value_gain_of). */
int qr_search_gen_threats(const qr_board *b, const qr_gen_paths *paths, qr_gen_move *list,
                          qr_board *other);

/* The side to move's blocks: walls anywhere on the board that leave it with a smaller best
   threat among threats (the opponent's best walls against it, generated for the opponent,
   best first; the first 3 are read): the threat is crossed or overlapped, made to gain less,
   or made illegal (it would then close the last path), which a wall far from the threat does
   by closing the route of the threat's detour. Only walls that do not lengthen the side to
   move's own path. Best first (threat gain taken away, then the opponent's path lengthened),
   at most limit (list needs room for 2 * QR_MAX_SLOTS); order is 64 * the gain taken away +
   the opponent's path lengthened. Up to 8 path searches a legal wall (15-25 us a call on 9x9):
   for the first plies of a tree only. */
int qr_search_gen_blocks(const qr_board *b, const qr_gen_paths *paths, const qr_gen_move *threats,
                         int nthreats, qr_gen_move *list, int limit);

/* ---- Leaf value (value.c) --------------------------------------------------------------- */

/* The gain of the wall best (generated for b's side to move; d: both paths now), or 0 when
   best is NULL; as in qr_leaf_facts. */
int qr_value_gain_of(const qr_board *b, const int d[2], const qr_gen_move *best);

/* ---- Rollouts (rollout.c) -------------------------------------------------------------- */

/* Slots of that orientation holding a "probable" wall: touching a wall, or touching a square
   a king step from a pawn, and neither overlapping nor crossing a wall (paths not checked). */
uint64_t qr_rollout_probable(const qr_board *b, int vertical);
/* qr_rollout with other shares: percent of moves that are walls (probable, random) and of
   moves that are random pawn steps; the rest are steps of least path length. */
int qr_rollout_mix(qr_board *b, qr_rng *r, int max_plies, int wall_percent, int random_percent);

#endif
