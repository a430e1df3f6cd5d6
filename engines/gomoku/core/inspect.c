/* inspect.c - read-only views for tests and tools, and the random-game benchmark. */
#include "gomoku.h"
#include "internal.h"

static int inspect_args(const gm_board *b, int x, int y, int dir)
{
    return x >= 0 && y >= 0 && x < b->size && y < b->size && dir >= 0 && dir < GM_NDIRS;
}

int gm_inspect_run(const gm_board *b, int color, int x, int y, int dir)
{
    if (!inspect_args(b, x, y, dir) || (color != GM_BLACK && color != GM_WHITE))
        return 0;
    int c = gm_cell(x, y);
    return gm_rules_run(gm_line_bits(b, color, dir, c) | 1u << gm_pos_of[dir][c], gm_pos_of[dir][c]);
}

uint32_t gm_inspect_line(const gm_board *b, int color, int x, int y, int dir, int *pos)
{
    if (!inspect_args(b, x, y, dir) || (color != GM_BLACK && color != GM_WHITE))
        return 0;
    *pos = gm_pos_of[dir][gm_cell(x, y)];
    return gm_line_bits(b, color, dir, gm_cell(x, y));
}

int gm_inspect_fours(gm_board *b, int x, int y, int dir)
{
    if (!inspect_args(b, x, y, dir) || b->cell[gm_cell(x, y)] != GM_EMPTY)
        return 0;
    int c = gm_cell(x, y);
    gm_board_put(b, c, GM_BLACK);
    int n = gm_rules_fours(gm_line_bits(b, GM_BLACK, dir, c), gm_line_empty(b, dir, c),
                           gm_pos_of[dir][c]);
    gm_board_lift(b, c);
    return n;
}

int gm_inspect_three(gm_board *b, int x, int y, int dir)
{
    if (!inspect_args(b, x, y, dir) || b->cell[gm_cell(x, y)] != GM_EMPTY)
        return 0;
    int c = gm_cell(x, y);
    gm_board_put(b, c, GM_BLACK);
    int three = gm_rules_three(b, c, dir);
    gm_board_lift(b, c);
    return three;
}

static uint64_t bench_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

long gm_bench_random_games(int size, int rule, int games, uint64_t seed, long *plies)
{
    gm_board b;
    int cells[GM_MAX_CELLS];
    long decided = 0, moves = 0;
    uint64_t rs = seed * 2654435761u + 1;
    if (gm_board_reset(&b, size, rule) != GM_OK)
        return -1;
    for (int g = 0; g < games; g++) {
        gm_board_reset(&b, size, rule);
        while (b.result == GM_RESULT_NONE) {
            int n = gm_board_legal_moves(&b, cells);
            gm_board_make(&b, cells[bench_next(&rs) % (uint64_t)n]);
            moves++;
        }
        decided += b.result != GM_RESULT_DRAW;
    }
    if (plies)
        *plies = moves;
    return decided;
}
