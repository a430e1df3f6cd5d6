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

/* clock.c: monotonic seconds (0 where the platform has no clock, as in wasm) */
double gm_clock_seconds(void);

#endif
