/* board.c - the position: cells, bit lines per colour and direction, Zobrist hash, record. */
#include "gomoku.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- tables -------------------------------------------------------------------------- */

/* Zobrist keys: one splitmix64 stream seeded with GM_ZOBRIST_SEED gives 400 black keys, 400
   white keys (index y * 20 + x, every size) and the white-to-move key. rules.py makes the
   same numbers. */
#define GM_ZOBRIST_SEED 0x60a0c0f1feULL

uint8_t gm_line_of[GM_NDIRS][GM_MAX_CELLS];
uint8_t gm_pos_of[GM_NDIRS][GM_MAX_CELLS];
int16_t gm_line_base[GM_NDIRS][GM_MAX_LINES];
const int gm_step[GM_NDIRS] = {1, GM_MAX_SIZE, GM_MAX_SIZE + 1, 1 - GM_MAX_SIZE};
uint64_t gm_zobrist[3][GM_MAX_CELLS];
uint64_t gm_zobrist_white;
static plat_once tables_once = PLAT_ONCE_INIT;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void tables_build(void)
{
    uint64_t st = GM_ZOBRIST_SEED;
    for (int c = GM_BLACK; c <= GM_WHITE; c++)
        for (int i = 0; i < GM_MAX_CELLS; i++)
            gm_zobrist[c][i] = splitmix64(&st);
    gm_zobrist_white = splitmix64(&st);
    for (int i = 0; i < GM_MAX_CELLS; i++) {
        int x = gm_cell_x(i), y = gm_cell_y(i);
        gm_line_of[GM_DIR_ROW][i] = (uint8_t)y;
        gm_pos_of[GM_DIR_ROW][i] = (uint8_t)x;
        gm_line_of[GM_DIR_COL][i] = (uint8_t)x;
        gm_pos_of[GM_DIR_COL][i] = (uint8_t)y;
        gm_line_of[GM_DIR_DIAG][i] = (uint8_t)(x - y + GM_MAX_SIZE - 1);
        gm_pos_of[GM_DIR_DIAG][i] = (uint8_t)x;
        gm_line_of[GM_DIR_ANTI][i] = (uint8_t)(x + y);
        gm_pos_of[GM_DIR_ANTI][i] = (uint8_t)x;
        for (int d = 0; d < GM_NDIRS; d++)
            gm_line_base[d][gm_line_of[d][i]] = (int16_t)(i - gm_pos_of[d][i] * gm_step[d]);
    }
}

void gm_tables_init(void)
{
    plat_run_once(&tables_once, tables_build);
}

uint64_t gm_zobrist_stone(int color, int x, int y)
{
    gm_tables_init();
    if ((color != GM_BLACK && color != GM_WHITE) || x < 0 || y < 0 || x >= GM_MAX_SIZE
        || y >= GM_MAX_SIZE)
        return 0;
    return gm_zobrist[color][gm_cell(x, y)];
}

uint64_t gm_zobrist_white_to_move(void)
{
    gm_tables_init();
    return gm_zobrist_white;
}

/* ---- life cycle ---------------------------------------------------------------------- */

static void board_valid_masks(gm_board *b)
{
    memset(b->valid, 0, sizeof b->valid);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            for (int d = 0; d < GM_NDIRS; d++) {
                int c = gm_cell(x, y);
                b->valid[d][gm_line_of[d][c]] |= 1u << gm_pos_of[d][c];
            }
}

int gm_board_reset(gm_board *b, int size, int rule)
{
    if (size < GM_MIN_SIZE || size > GM_MAX_SIZE)
        return GM_ERR_SIZE;
    if (rule < GM_FREESTYLE || rule > GM_RENJU)
        return GM_ERR_RULE;
    gm_tables_init();
    memset(b, 0, sizeof *b);
    b->size = size;
    b->rule = rule;
    b->to_move = GM_BLACK;
    b->result = GM_RESULT_NONE;
    b->win_dir = -1;
    board_valid_masks(b);
    return GM_OK;
}

gm_board *gm_board_new(int size, int rule)
{
    gm_board *b = malloc(sizeof *b);
    if (b && gm_board_reset(b, size, rule) != GM_OK) {
        free(b);
        b = NULL;
    }
    return b;
}

void gm_board_free(gm_board *b)
{
    free(b);
}

void gm_board_copy(gm_board *dst, const gm_board *src)
{
    if (dst != src)
        memcpy(dst, src, sizeof *dst);
}

/* ---- reading ------------------------------------------------------------------------- */

int gm_board_size(const gm_board *b) { return b->size; }
int gm_board_rule(const gm_board *b) { return b->rule; }
int gm_board_to_move(const gm_board *b) { return b->to_move; }
int gm_board_result(const gm_board *b) { return b->result; }
int gm_board_nmoves(const gm_board *b) { return b->nmoves; }

int gm_board_move(const gm_board *b, int i)
{
    return i >= 0 && i < b->nmoves ? b->moves[i] : -1;
}

static int board_on(const gm_board *b, int x, int y)
{
    return x >= 0 && y >= 0 && x < b->size && y < b->size;
}

int gm_board_at(const gm_board *b, int x, int y)
{
    return board_on(b, x, y) ? b->cell[gm_cell(x, y)] : -1;
}

uint64_t gm_board_hash(const gm_board *b)
{
    return gm_board_key(b);
}

int gm_board_win_line(const gm_board *b, int *cells)
{
    if (b->win_dir < 0 || b->nmoves == 0)
        return 0;
    int d = b->win_dir, last = b->moves[b->nmoves - 1], color = b->cell[last];
    uint32_t own = gm_line_bits(b, color, d, last);
    int pos = gm_pos_of[d][last], start = pos, n = 0;
    while (start > 0 && (own >> (start - 1)) & 1u)
        start--;
    for (int p = start; p < 32 && (own >> p) & 1u; p++)
        cells[n++] = last + (p - pos) * gm_step[d];
    return n;
}

/* ---- stones and moves ---------------------------------------------------------------- */

/* The result after the stone just put on cell: a win, a draw, or none. */
static int board_judge(gm_board *b, int cell, int color)
{
    b->win_dir = gm_rules_win_dir(b, cell);
    if (b->win_dir >= 0)
        return color;
    if (b->nmoves == b->size * b->size || !gm_rules_has_legal_move(b))
        return GM_RESULT_DRAW;
    return GM_RESULT_NONE;
}

void gm_board_make(gm_board *b, int cell)
{
    gm_board_place(b, cell);
    b->result = board_judge(b, cell, b->cell[cell]);
}

int gm_board_setup(gm_board *b, const int *cells, int n)
{
    uint8_t seen[GM_MAX_CELLS] = {0};
    if (n < 0 || n > b->size * b->size)
        return GM_ERR_SIZE;
    for (int i = 0; i < n; i++) {
        int x = gm_cell_x(cells[i]), y = gm_cell_y(cells[i]);
        if (cells[i] < 0 || !board_on(b, x, y))
            return GM_ERR_OFF_BOARD;
        if (seen[cells[i]]++)
            return GM_ERR_OCCUPIED;
    }
    gm_board_reset(b, b->size, b->rule);
    for (int i = 0; i < n; i++)
        gm_board_place(b, cells[i]);
    if (n > 0)
        b->result = board_judge(b, cells[n - 1], b->cell[cells[n - 1]]);
    return GM_OK;
}

int gm_board_check(gm_board *b, int x, int y)
{
    if (!board_on(b, x, y))
        return GM_ERR_OFF_BOARD;
    if (b->result != GM_RESULT_NONE)
        return GM_ERR_GAME_OVER;
    int cell = gm_cell(x, y);
    if (b->cell[cell] != GM_EMPTY)
        return GM_ERR_OCCUPIED;
    if (b->to_move == GM_BLACK && b->rule == GM_RENJU)
        return gm_rules_forbidden_cell(b, cell);
    return GM_OK;
}

int gm_board_play(gm_board *b, int x, int y)
{
    int err = gm_board_check(b, x, y);
    if (err == GM_OK)
        gm_board_make(b, gm_cell(x, y));
    return err;
}

int gm_board_undo(gm_board *b)
{
    if (b->nmoves == 0)
        return GM_ERR_NO_MOVE;
    gm_board_unmake(b);
    return GM_OK;
}

int gm_board_legal_moves(gm_board *b, int *cells)
{
    int n = 0;
    if (b->result != GM_RESULT_NONE)
        return 0;
    int renju_black = b->rule == GM_RENJU && b->to_move == GM_BLACK;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int c = gm_cell(x, y);
            if (b->cell[c] == GM_EMPTY && (!renju_black || gm_rules_forbidden_cell(b, c) == GM_OK))
                cells[n++] = c;
        }
    return n;
}
