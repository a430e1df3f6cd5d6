/* game.c - a game record over the board: history, undo by replay, positional superko, and
   the game-level faces of the scoring in score.c. Knows nothing of the search. */
#include "go.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct go_game {
    go_board board;
    double komi;
    int superko;
    int nmoves, cap;
    uint16_t *mpoint;     /* board index of move i (GO_PASS for a pass) */
    uint8_t *mcolor;      /* color of move i */
    uint64_t *hashes;     /* hashes[i]: pos_hash before move i; hashes[nmoves] = current */
    uint64_t line;        /* go_game_line: renewed by new, clear and a komi change */
};

/* Line numbers are unique in the process (a search may see several games). */
static uint64_t game_next_line(void)
{
    static uint64_t counter;
    return __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
}

/* ---- Life cycle ------------------------------------------------------------------------ */

static int game_reserve(go_game *g, int n)
{
    if (n <= g->cap)
        return GO_OK;
    int cap = g->cap ? g->cap * 2 : 512;
    while (cap < n)
        cap *= 2;
    uint16_t *mp = realloc(g->mpoint, cap * sizeof *mp);
    if (!mp)
        return GO_ERR_NOMEM;
    g->mpoint = mp;
    uint8_t *mc = realloc(g->mcolor, cap);
    if (!mc)
        return GO_ERR_NOMEM;
    g->mcolor = mc;
    uint64_t *h = realloc(g->hashes, (cap + 1) * sizeof *h);
    if (!h)
        return GO_ERR_NOMEM;
    g->hashes = h;
    g->cap = cap;
    return GO_OK;
}

go_game *go_game_new(int size, double komi, int superko)
{
    go_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->komi = komi;
    g->superko = superko;
    if (game_reserve(g, 512) != GO_OK || go_game_clear(g, size) != GO_OK) {
        go_game_free(g);
        return NULL;
    }
    return g;
}

void go_game_free(go_game *g)
{
    if (!g)
        return;
    free(g->mpoint);
    free(g->mcolor);
    free(g->hashes);
    free(g);
}

int go_game_clear(go_game *g, int size)
{
    if (size <= 0)
        size = g->board.size;
    if (go_board_init(&g->board, size) != GO_OK)
        return GO_ERR_SIZE;
    g->nmoves = 0;
    g->hashes[0] = g->board.pos_hash;
    g->line = game_next_line();
    return GO_OK;
}

void go_game_set_komi(go_game *g, double komi)
{
    if (komi != g->komi)
        g->line = game_next_line();   /* a tree's values were measured against the old komi */
    g->komi = komi;
}
double go_game_komi(const go_game *g) { return g->komi; }
void go_game_set_superko(go_game *g, int on) { g->superko = on; }
int go_game_superko(const go_game *g) { return g->superko; }
const go_board *go_game_board(const go_game *g) { return &g->board; }
uint64_t go_game_line(const go_game *g) { return g->line; }
int go_game_size(const go_game *g) { return g->board.size; }
int go_game_to_move(const go_game *g) { return g->board.to_move; }
int go_game_captures(const go_game *g, int color) { return g->board.captures[color]; }
int go_game_nmoves(const go_game *g) { return g->nmoves; }
int go_game_move_point(const go_game *g, int i) { return g->mpoint[i]; }

int go_game_ko_xy(const go_game *g, int *x, int *y)
{
    if (!g->board.ko)
        return 0;
    go_xy(&g->board, g->board.ko, x, y);
    return 1;
}

void go_game_move(const go_game *g, int i, int *color, int *x, int *y)
{
    *color = g->mcolor[i];
    *x = *y = -1;
    if (g->mpoint[i] != GO_PASS)
        go_xy(&g->board, g->mpoint[i], x, y);
}

/* ---- Moves ------------------------------------------------------------------------------ */

static int to_point(const go_board *b, int x, int y, int *point)
{
    if (x < 0 && y < 0) {
        *point = GO_PASS;
        return GO_OK;
    }
    if (x < 0 || y < 0 || x >= b->size || y >= b->size)
        return GO_ERR_OFF_BOARD;
    *point = go_point(b, x, y);
    return GO_OK;
}

int go_game_repeats(const go_game *g, int color, int point)
{
    if (point == GO_PASS)
        return 0;
    go_board tmp;
    go_board_copy(&tmp, &g->board);
    go_board_play(&tmp, color, point);
    for (int i = 0; i <= g->nmoves; i++)
        if (g->hashes[i] == tmp.pos_hash)
            return 1;
    return 0;
}

static int check_point(const go_game *g, int color, int point)
{
    int err = go_board_check(&g->board, color, point);
    if (err == GO_OK && g->superko && go_game_repeats(g, color, point))
        err = GO_ERR_SUPERKO;
    return err;
}

int go_game_check(const go_game *g, int color, int x, int y)
{
    int point, err;
    if (color != GO_BLACK && color != GO_WHITE)
        return GO_ERR_COLOR;
    if ((err = to_point(&g->board, x, y, &point)) != GO_OK)
        return err;
    return check_point(g, color, point);
}

static void record(go_game *g, int color, int point)
{
    g->mpoint[g->nmoves] = (uint16_t)point;
    g->mcolor[g->nmoves] = (uint8_t)color;
    g->nmoves++;
    g->hashes[g->nmoves] = g->board.pos_hash;
}

int go_game_play(go_game *g, int color, int x, int y, int *cap_xy, int *ncap)
{
    int point, err;
    if (ncap)
        *ncap = 0;
    if (color != GO_BLACK && color != GO_WHITE)
        return GO_ERR_COLOR;
    if ((err = to_point(&g->board, x, y, &point)) != GO_OK)
        return err;
    if ((err = check_point(g, color, point)) != GO_OK)
        return err;
    if (game_reserve(g, g->nmoves + 1) != GO_OK)
        return GO_ERR_NOMEM;
    uint8_t before[GO_MAX_POINTS];
    if (cap_xy)
        memcpy(before, g->board.color, g->board.npoints);
    go_board_play(&g->board, color, point);
    record(g, color, point);
    if (cap_xy && ncap) {
        int other = go_other(color);
        for (int p = 0; p < g->board.npoints; p++)
            if (before[p] == other && g->board.color[p] == GO_EMPTY) {
                go_xy(&g->board, p, &cap_xy[2 * *ncap], &cap_xy[2 * *ncap + 1]);
                (*ncap)++;
            }
    }
    return GO_OK;
}

int go_game_undo(go_game *g)
{
    if (g->nmoves == 0)
        return 0;
    int n = g->nmoves - 1;
    go_board_init(&g->board, g->board.size);
    g->nmoves = 0;
    for (int i = 0; i < n; i++) {
        int color = g->mcolor[i], point = g->mpoint[i];
        go_board_play(&g->board, color, point);
        record(g, color, point);
    }
    return 1;
}

int go_game_legal_moves(const go_game *g, int color, int *xy)
{
    int n = 0;
    const go_board *b = &g->board;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            if (check_point(g, color, go_point(b, x, y)) == GO_OK) {
                xy[2 * n] = x;
                xy[2 * n + 1] = y;
                n++;
            }
    return n;
}

void go_game_board_chars(const go_game *g, char *out)
{
    const go_board *b = &g->board;
    static const char CH[4] = {'.', 'b', 'w', '#'};
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            out[y * b->size + x] = CH[b->color[go_point(b, x, y)]];
}

uint64_t go_game_hash(const go_game *g) { return go_board_hash(&g->board); }

double go_game_tromp_taylor(const go_game *g) { return go_board_area(&g->board) - g->komi; }

/* ---- Scoring (score.c does the work on the board) ------------------------------------------ */

void go_game_pass_alive(const go_game *g, uint8_t *out) { go_score_pass_alive(&g->board, out); }

void go_game_ownership(const go_game *g, int playouts, go_rng *rng, float *own)
{
    go_score_ownership(&g->board, playouts, rng, own);
}

int go_game_dead_stones(const go_game *g, int playouts, go_rng *rng, uint8_t *out)
{
    return go_score_dead_stones(&g->board, playouts, rng, out);
}

double go_game_final_score(const go_game *g, int playouts, go_rng *rng)
{
    return go_score_final(&g->board, g->komi, playouts, rng);
}
