/* internal.h - helpers shared between the Gomoku core's files; the binding never sees it. */
#ifndef GOMOKU_INTERNAL_H
#define GOMOKU_INTERNAL_H

#include "gomoku.h"
#include "core_platform.h" /* once and the clock: the native/wasm seam */

/* Line mapping (the same for every size, set up once by gm_tables_init):
     GM_DIR_ROW  line y,                    pos x
     GM_DIR_COL  line x,                    pos y
     GM_DIR_DIAG line x - y + MAX_SIZE - 1,  pos x   (a step is x+1, y+1)
     GM_DIR_ANTI line x + y,                 pos x   (a step is x+1, y-1)
   so one step along a direction is pos + 1 and cell + gm_step[dir]. */
extern uint8_t gm_line_of[GM_NDIRS][GM_MAX_CELLS];
extern uint8_t gm_pos_of[GM_NDIRS][GM_MAX_CELLS];
extern const int gm_step[GM_NDIRS];
extern uint64_t gm_zobrist[3][GM_MAX_CELLS];     /* [color][cell]; [GM_EMPTY] is all zero */
extern uint64_t gm_zobrist_white;
void gm_tables_init(void);                       /* idempotent, thread-safe (plat_run_once) */

/* board.c: stones without bookkeeping (bits and cell only), for the rules' what-ifs. */
void gm_board_put(gm_board *b, int cell, int color);
void gm_board_lift(gm_board *b, int cell);
/* board.c: a move without a legality check, and its exact inverse. */
void gm_board_make(gm_board *b, int cell);
void gm_board_unmake(gm_board *b);
/* The search's move: the caller knows whether it makes a five (won); the result is that win
   or none (a draw is not judged, win_dir stays -1). gm_board_unmake undoes it too. */
void gm_board_make_won(gm_board *b, int cell, int won);

/* The bit line of color through cell along dir, and the empty points of that line. */
static inline uint32_t gm_line_bits(const gm_board *b, int color, int dir, int cell)
{
    return b->line[color - 1][dir][gm_line_of[dir][cell]];
}
static inline uint32_t gm_line_empty(const gm_board *b, int dir, int cell)
{
    int l = gm_line_of[dir][cell];
    return b->valid[dir][l] & ~(b->line[0][dir][l] | b->line[1][dir][l]);
}

/* rules.c */
int gm_rules_run(uint32_t own, int pos);          /* length of the run of own's bits at pos */
int gm_rules_wins(int rule, int color, int run);  /* does a run of that length win? */
int gm_rules_win_dir(const gm_board *b, int cell); /* dir of the stone's winning line, or -1 */
int gm_rules_forbidden_cell(gm_board *b, int cell); /* renju, black, empty cell: GM_OK/reason */
int gm_rules_fours(uint32_t own, uint32_t empty, int pos); /* black fours, stone at pos */
int gm_rules_three(gm_board *b, int cell, int dir);  /* black stone at cell: a three? */
int gm_rules_has_legal_move(gm_board *b);

/* patterns.c: the search's line-pattern codes, updated per stone (see patterns.c). */
#define GM_SET_WORDS ((GM_MAX_CELLS + 63) / 64)
enum { GM_CODES_FIVE = 0, GM_CODES_THREE = 2 };
#define GM_CODES_LOG (GM_MAX_CELLS * 144)  /* a stone flips at most 144 flags (4 lines x 2
                                              masks x 18 bits within four points) */
#define GM_KEY_SLOTS 32                    /* a line's keys: its point pos at slot pos + 4 */
typedef struct gm_codes_undo {
    uint64_t key[GM_NDIRS][2], mask[GM_NDIRS][2];
    int eval, log;
} gm_codes_undo;
typedef struct gm_codes {
    uint16_t key[GM_NDIRS][GM_MAX_LINES * GM_KEY_SLOTS]; /* per line, the 8 points at 2 bits
                                              around each on-board point; off-board slots 0 */
    uint64_t mask[GM_NDIRS][GM_MAX_LINES][2]; /* per line, its empty points with a window of
                                              four ([0]) / of three ([1]): black's bits 0-31,
                                              white's 32-63 (bit = the point's pos) */
    uint8_t count[4][GM_MAX_CELLS];        /* empty cells: [GM_CODES_FIVE + colour - 1] the
                                              directions with a window of four of that colour
                                              (a five may be possible); [GM_CODES_THREE +
                                              colour - 1]: of three; occupied cells: 0 */
    uint64_t set[4][GM_SET_WORDS];         /* cells with count[i] > 0 */
    int eval;                              /* black's window sum minus white's */
    /* Not part of the state (gm_codes_equal and gm_codes_rebuild stop before it): how to take
       back the stone put as move i (i = the record's length before it): its lines' keys and
       masks and the evaluation before it, and where its changes of the counts start in the
       log (each entry: count i of cell n, i << 9 | n, and its old value << 11). */
    gm_codes_undo undo[GM_MAX_CELLS];
    int nlog;
    uint16_t log[GM_CODES_LOG];
} gm_codes;
#define GM_LINE_KEYS (1 << 16)
extern int32_t gm_line_order[GM_LINE_KEYS][2];  /* move-order score of a key, black / white */
extern uint16_t gm_key_slot[GM_NDIRS][GM_MAX_CELLS]; /* a cell's slot: line * 32 + pos + 4 */
static inline uint32_t gm_codes_key(const gm_codes *k, int d, int cell)
{
    return k->key[d][gm_key_slot[d][cell]];
}
/* How urgent a move on the empty cell is for color: its windows it extends and spoils. */
static inline int gm_codes_order(const gm_codes *k, int cell, int color)
{
    return gm_line_order[gm_codes_key(k, 0, cell)][color - 1]
           + gm_line_order[gm_codes_key(k, 1, cell)][color - 1]
           + gm_line_order[gm_codes_key(k, 2, cell)][color - 1]
           + gm_line_order[gm_codes_key(k, 3, cell)][color - 1];
}
void gm_codes_tables_init(void);           /* idempotent, thread-safe (plat_run_once) */
void gm_codes_rebuild(gm_codes *k, const gm_board *b);        /* from scratch */
int gm_codes_put(gm_codes *k, const gm_board *b, int cell, int color); /* eval delta */
void gm_codes_lift(gm_codes *k, const gm_board *b, int cell, int color);
int gm_codes_eval_delta(const gm_codes *k, int cell, int color); /* of a stone there */
void gm_codes_cand_rows(const gm_board *b, uint32_t *cand); /* per row, the empty points
                                                              near a stone */
int gm_codes_equal(const gm_codes *a, const gm_codes *b);
/* search.c: verify mode (tests): every make/unmake compares the codes with a rebuild;
   *checks gets the comparisons made, the return value the mismatches. */
void gm_search_set_verify(gm_search *s, int on);
long gm_search_mismatches(const gm_search *s, long *checks);

/* clock.c: monotonic seconds (0 where the platform has no clock, as in wasm) */
double gm_clock_seconds(void);

#endif
