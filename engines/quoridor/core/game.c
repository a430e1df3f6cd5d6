/* game.c - the game record: a board, its configuration and the undo records of its moves. */
#include "quoridor.h"
#include "internal.h"

#include <stdlib.h>

struct qr_game {
    qr_board board;
    qr_undo *hist;         /* hist[i]: the undo record of move i */
    int nmoves, cap;
    int walls;             /* walls each player started with */
};

qr_game *qr_game_new(int size, int walls, int edge_diagonal)
{
    qr_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (qr_board_init(&g->board, size, walls, edge_diagonal) != QR_OK) {
        free(g);
        return NULL;
    }
    g->walls = g->board.walls_left[0];
    return g;
}

void qr_game_free(qr_game *g)
{
    if (g)
        free(g->hist);
    free(g);
}

const qr_board *qr_game_board(const qr_game *g)
{
    return &g->board;
}

int qr_game_clear(qr_game *g, int size, int walls, int edge_diagonal)
{
    qr_board fresh;
    int err = size > 0 ? qr_board_init(&fresh, size, walls, edge_diagonal)
                       : qr_board_init(&fresh, g->board.size, g->walls, edge_diagonal);
    if (err != QR_OK)
        return err;
    g->board = fresh;
    g->walls = fresh.walls_left[0];
    g->nmoves = 0;
    return QR_OK;
}

static int game_reserve(qr_game *g)
{
    if (g->nmoves < g->cap)
        return 1;
    int cap = g->cap ? 2 * g->cap : 64;
    qr_undo *h = realloc(g->hist, (size_t)cap * sizeof *h);
    if (!h)
        return 0;
    g->hist = h;
    g->cap = cap;
    return 1;
}

int qr_game_play(qr_game *g, int move)
{
    int err = qr_board_check(&g->board, move);
    if (err != QR_OK)
        return err;
    if (!game_reserve(g))
        return QR_ERR_NOMEM;
    qr_board_play(&g->board, move, &g->hist[g->nmoves++]);
    return QR_OK;
}

int qr_game_set_position(qr_game *g, int pawn0, int pawn1, uint64_t hwalls, uint64_t vwalls,
                         int left0, int left1, int to_move)
{
    int err = qr_board_set_position(&g->board, pawn0, pawn1, hwalls, vwalls, left0, left1, to_move);
    if (err == QR_OK)
        g->nmoves = 0;
    return err;
}

int qr_game_undo(qr_game *g)
{
    if (g->nmoves == 0)
        return 0;
    qr_board_undo(&g->board, &g->hist[--g->nmoves]);
    return 1;
}

int qr_game_nmoves(const qr_game *g)
{
    return g->nmoves;
}

int qr_game_move(const qr_game *g, int i)
{
    return i >= 0 && i < g->nmoves ? g->hist[i].move : -1;
}

int qr_game_recent_hashes(const qr_game *g, uint64_t *out, int max)
{
    qr_board b = g->board;
    int k = 0;
    for (int i = g->nmoves - 1; i >= 0 && k < max && g->hist[i].move < QR_WALL_H; i--) {
        qr_board_undo(&b, &g->hist[i]);
        out[k++] = b.hash;
    }
    return k;
}
