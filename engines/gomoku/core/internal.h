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
extern int16_t gm_line_base[GM_NDIRS][GM_MAX_LINES]; /* the cell of a line's pos 0 (off the
                                                       board for some): base + pos * step */
extern const int gm_step[GM_NDIRS];
extern uint64_t gm_zobrist[3][GM_MAX_CELLS];     /* [color][cell]; [GM_EMPTY] is all zero */
extern uint64_t gm_zobrist_white;
void gm_tables_init(void);                       /* idempotent, thread-safe (plat_run_once) */

/* Stones without bookkeeping (bits and cell only), for the rules' what-ifs. Inline here, as
   the moves below, because the search makes one at every node. */
static inline void gm_board_put(gm_board *b, int cell, int color)
{
    b->cell[cell] = (uint8_t)color;
    for (int d = 0; d < GM_NDIRS; d++)
        b->line[color - 1][d][gm_line_of[d][cell]] |= 1u << gm_pos_of[d][cell];
}

static inline void gm_board_lift(gm_board *b, int cell)
{
    int color = b->cell[cell];
    b->cell[cell] = GM_EMPTY;
    for (int d = 0; d < GM_NDIRS; d++)
        b->line[color - 1][d][gm_line_of[d][cell]] &= ~(1u << gm_pos_of[d][cell]);
}

/* A stone of the side to move, recorded, without judging the result. */
static inline void gm_board_place(gm_board *b, int cell)
{
    int color = b->to_move;
    gm_board_put(b, cell, color);
    b->hash ^= gm_zobrist[color][cell];
    b->moves[b->nmoves++] = (uint16_t)cell;
    b->to_move = gm_other(color);
}

/* board.c: a move without a legality check, its result judged (gm_board_unmake undoes it). */
void gm_board_make(gm_board *b, int cell);

/* The search's move: the caller knows whether it makes a five (won); the result is that win
   or none (a draw is not judged, win_dir stays -1). gm_board_unmake undoes it too. */
static inline void gm_board_make_won(gm_board *b, int cell, int won)
{
    int color = b->to_move;
    gm_board_place(b, cell);
    b->result = won ? color : GM_RESULT_NONE;
}

/* The exact inverse of a move. */
static inline void gm_board_unmake(gm_board *b)
{
    int cell = b->moves[--b->nmoves], color = b->cell[cell];
    b->moves[b->nmoves] = 0;      /* so that make + unmake gives back the very same bytes */
    gm_board_lift(b, cell);
    b->hash ^= gm_zobrist[color][cell];
    b->to_move = color;
    b->result = GM_RESULT_NONE;   /* no move is ever made after a result */
    b->win_dir = -1;
}

/* gm_board_hash, inline for the search's table probes: the stones and the side to move. */
static inline uint64_t gm_board_key(const gm_board *b)
{
    return b->hash ^ (b->to_move == GM_WHITE ? gm_zobrist_white : 0);
}

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
/* Do five or more win (freestyle; white in renju)? Then any run of five does, whatever its
   length: the search judges no run there. */
static inline int gm_rules_overline_wins(int rule, int color)
{
    return rule == GM_FREESTYLE || (rule == GM_RENJU && color == GM_WHITE);
}
int gm_rules_win_dir(const gm_board *b, int cell); /* dir of the stone's winning line, or -1 */
int gm_rules_forbidden_cell(gm_board *b, int cell); /* renju, black, empty cell: GM_OK/reason */
int gm_rules_fours(uint32_t own, uint32_t empty, int pos); /* black fours, stone at pos */
int gm_rules_three(gm_board *b, int cell, int dir);  /* black stone at cell: a three? */
int gm_rules_has_legal_move(gm_board *b);

/* patterns.c: the search's line-pattern codes, updated per stone (see patterns.c). */
#define GM_SET_WORDS ((GM_MAX_CELLS + 63) / 64)
/* A kind of flag and a colour: i = GM_CODES_FIVE / GM_CODES_THREE + colour - 1 names the
   empty points with a window of four of that colour (a five may be possible) / of three. */
enum { GM_CODES_FIVE = 0, GM_CODES_THREE = 2 };
#define GM_KEY_SLOTS 32                    /* a line's keys: its point pos at slot pos + 4 */
typedef struct gm_codes_undo {
    uint64_t key[GM_NDIRS][2], mask[GM_NDIRS][2];
    int eval;
} gm_codes_undo;
typedef struct gm_codes {
    uint16_t key[GM_NDIRS][GM_MAX_LINES * GM_KEY_SLOTS]; /* per line, the 8 points at 2 bits
                                              around each on-board point; off-board slots 0 */
    uint64_t mask[GM_NDIRS][GM_MAX_LINES][2]; /* per line, its empty points with a window of
                                              four ([0]) / of three ([1]): black's bits 0-31,
                                              white's 32-63 (bit = the point's pos) */
    uint64_t lines[2][GM_NDIRS];           /* bit l: mask[d][l][kind] is not 0 */
    int eval;                              /* black's window sum minus white's */
    /* Not part of the state (gm_codes_equal and gm_codes_rebuild stop before it): how to take
       back the stone put as move i (i = the record's length before it): its lines' keys and
       masks and the evaluation before it. */
    gm_codes_undo undo[GM_MAX_CELLS];
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
/* patterns.c's flags of a whole line at once, also read by search.c's VCF (a four judged
   without its move). The line's empty points where a stone would have a clean window (five
   on-board points, no opposing stone) with four of its colour's stones (*five) or three
   (*three): black's in bits 0-31, white's in 32-63, both computed together. A window start
   s is bit s of w5 (the points s .. s+4); its count of stones is added bit-sliced from the
   five shifted lines. The high half's bits that a right shift moves into the low half land
   at bits 28-31, where no window of a line of at most 20 points starts. */
static inline void gm_line_masks(uint32_t bl, uint32_t wh, uint32_t on, uint64_t *five,
                                 uint64_t *three)
{
    uint64_t own = bl | (uint64_t)wh << 32;
    uint64_t clean = (on & ~wh) | (uint64_t)(on & ~bl) << 32;
    uint64_t empty = on & ~(bl | wh);
    empty |= empty << 32;
    uint64_t w2 = clean & clean >> 1, w5 = w2 & w2 >> 2 & clean >> 4;
    uint64_t a = own, b = own >> 1, c = own >> 2, d = own >> 3, e = own >> 4;
    uint64_t s1 = a ^ b ^ c, c1 = (a & b) | (c & (a ^ b));
    uint64_t s2 = s1 ^ d ^ e, c2 = (s1 & d) | (e & (s1 ^ d));
    uint64_t two = c1 & c2, one = c1 ^ c2;       /* the count is s2 + 2 * (c1 + c2) */
    uint64_t f4 = w5 & two & ~s2, f3 = w5 & one & s2;
    f4 |= f4 << 1;
    f4 |= f4 << 2 | f4 << 3;                      /* starts s .. s+4 cover a point */
    f3 |= f3 << 1;
    f3 |= f3 << 2 | f3 << 3;
    *five = f4 & empty;
    *three = f3 & empty;
}
void gm_codes_tables_init(void);           /* idempotent, thread-safe (plat_run_once) */
void gm_codes_rebuild(gm_codes *k, const gm_board *b);        /* from scratch */
int gm_codes_put(gm_codes *k, const gm_board *b, int cell, int color); /* eval delta */
void gm_codes_lift(gm_codes *k, const gm_board *b, int cell, int color);
/* The VCF's stones: only the flags change (keys and evaluation are left as they were). */
void gm_codes_put_flags(gm_codes *k, const gm_board *b, int cell, int color);
void gm_codes_lift_flags(gm_codes *k, const gm_board *b, int cell);
int gm_codes_flags_equal(const gm_codes *a, const gm_codes *b);  /* masks and summaries */
int gm_codes_eval_delta(const gm_codes *k, int cell, int color); /* of a stone there */
void gm_codes_cand_rows(const gm_board *b, uint32_t *cand); /* per row, the empty points
                                                              near a stone */
/* Is the empty cell one of them (a stone within two points along one of its lines)? */
int gm_codes_near_stone(const gm_board *b, int cell);
void gm_codes_cells(const gm_codes *k, int i, uint64_t *set); /* flag i's cells, a bit set */
void gm_codes_cells_either(const gm_codes *k, int kind, uint64_t *set); /* of either colour */
/* The OR of the empty cell's four lines' masks of a kind (0: five, 1: three), shifted so
   that bit 0 is black's flag of the cell and bit 32 white's. */
static inline uint64_t gm_codes_flag_word(const gm_codes *k, int kind, int cell)
{
    uint64_t any = 0;
    for (int d = 0; d < GM_NDIRS; d++)
        any |= k->mask[d][gm_line_of[d][cell]][kind] >> gm_pos_of[d][cell];
    return any;
}
/* Does the empty cell have flag i (along any of its four lines)? */
static inline int gm_codes_has(const gm_codes *k, int i, int cell)
{
    return (int)((gm_codes_flag_word(k, i >> 1, cell) >> (32 * (i & 1))) & 1);
}
/* Does the empty cell have the flag of kind GM_CODES_FIVE / THREE of either colour? */
static inline int gm_codes_has_any(const gm_codes *k, int kind, int cell)
{
    return (gm_codes_flag_word(k, kind >> 1, cell) & ((uint64_t)1 << 32 | 1)) != 0;
}
int gm_codes_equal(const gm_codes *a, const gm_codes *b);
/* search.c: verify mode (tests): every make/unmake compares the codes with a rebuild;
   *checks gets the comparisons made, the return value the mismatches. */
void gm_search_set_verify(gm_search *s, int on);
long gm_search_mismatches(const gm_search *s, long *checks);

/* clock.c: monotonic seconds (0 where the platform has no clock, as in wasm) */
double gm_clock_seconds(void);

#endif
