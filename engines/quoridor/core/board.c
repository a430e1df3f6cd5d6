/* board.c - the position: pawns, walls as slot masks and open-groove cell masks, pawn moves
   with jumps and diagonals, legality, play and undo in pairs, the incremental Zobrist hash. */
#include "quoridor.h"
#include "internal.h"

#include <string.h>

int qr_default_walls(int size)
{
    if (size < QR_MIN_SIZE || size > QR_MAX_SIZE || size % 2 == 0)
        return -1;
    return (10 * size * size + 40) / 81;     /* round(10 * size^2 / 81) */
}

int qr_board_init(qr_board *b, int size, int walls, int edge_diagonal)
{
    if (qr_default_walls(size) < 0)
        return QR_ERR_SIZE;
    if (walls < 0)
        walls = qr_default_walls(size);
    if (walls > QR_MAX_WALLS)
        return QR_ERR_SIZE;
    const qr_geom *g = qr_geom_of(size);
    memset(b, 0, sizeof *b);
    b->size = size;
    b->geom = g;
    b->edge_diagonal = edge_diagonal != 0;
    b->pawn[0] = size / 2;
    b->pawn[1] = (size - 1) * size + size / 2;
    b->walls_left[0] = b->walls_left[1] = walls;
    b->open_e = g->all;
    b->open_n = bb_andn(g->all, g->goal[0]);
    for (int y = 0; y < size; y++)
        bb_flip(&b->open_e, y * size + size - 1);
    b->hash = g->zpawn[0][b->pawn[0]] ^ g->zpawn[1][b->pawn[1]] ^ g->zleft[0][walls] ^
              g->zleft[1][walls];
    return QR_OK;
}

static void wall_toggle(qr_board *b, int vertical, int slot);
static void walls_left_set(qr_board *b, int player, int count);

/* Why walls h, v could not stand together on b's size, QR_OK if they can. */
static int walls_consistent(const qr_board *b, uint64_t h, uint64_t v)
{
    const qr_geom *g = qr_geom_b(b);
    if ((h | v) & ~g->slots)
        return QR_ERR_OFF_BOARD;
    uint64_t h_near = qr_slots_shift(g, h, 1, 0), v_near = qr_slots_shift(g, v, 0, 1);
    if ((h & h_near) || (v & v_near))
        return QR_ERR_OVERLAP;
    return (h & v) ? QR_ERR_CROSS : QR_OK;
}

static int position_in_range(const qr_board *b, int p0, int p1, int l0, int l1, int to_move)
{
    int cells = b->size * b->size;
    return p0 >= 0 && p0 < cells && p1 >= 0 && p1 < cells && p0 != p1 && l0 >= 0 &&
           l0 <= QR_MAX_WALLS && l1 >= 0 && l1 <= QR_MAX_WALLS && (to_move == 0 || to_move == 1);
}

int qr_board_set_position(qr_board *b, int pawn0, int pawn1, uint64_t hwalls, uint64_t vwalls,
                          int left0, int left1, int to_move)
{
    qr_board t;
    qr_board_init(&t, b->size, 0, b->edge_diagonal);
    if (!position_in_range(b, pawn0, pawn1, left0, left1, to_move))
        return QR_ERR_OFF_BOARD;
    int err = walls_consistent(b, hwalls, vwalls);
    if (err != QR_OK)
        return err;
    const qr_geom *g = qr_geom_b(b);
    for (int v = 0; v < 2; v++)
        for (uint64_t s = v ? vwalls : hwalls; s; s &= s - 1)
            wall_toggle(&t, v, __builtin_ctzll(s));
    t.hash ^= g->zpawn[0][t.pawn[0]] ^ g->zpawn[0][pawn0] ^ g->zpawn[1][t.pawn[1]] ^ g->zpawn[1][pawn1];
    t.pawn[0] = pawn0;
    t.pawn[1] = pawn1;
    walls_left_set(&t, 0, left0);
    walls_left_set(&t, 1, left1);
    if (to_move)
        t.hash ^= g->zto;
    t.to_move = to_move;
    if (qr_board_path_length(&t, 0) < 0 || qr_board_path_length(&t, 1) < 0)
        return QR_ERR_BLOCKS;
    *b = t;
    return QR_OK;
}

int qr_pawn_move(const qr_board *b, int x, int y)
{
    return y * b->size + x;
}

int qr_wall_move(const qr_board *b, int vertical, int x, int y)
{
    return (vertical ? QR_WALL_V : QR_WALL_H) + y * (b->size - 1) + x;
}

int qr_wall_decode(const qr_board *b, int move, int *vertical, int *slot)
{
    int m = b->size - 1;
    *vertical = move >= QR_WALL_V;
    *slot = move - (*vertical ? QR_WALL_V : QR_WALL_H);
    return move >= QR_WALL_H && move < QR_MOVE_END && *slot < m * m;
}

int qr_board_winner(const qr_board *b)
{
    int n = b->size;
    if (b->pawn[0] >= (n - 1) * n)
        return 0;
    if (b->pawn[1] < n)
        return 1;
    return -1;
}

/* ---- Pawn moves ----------------------------------------------------------------------- */

enum { DIR_E, DIR_W, DIR_N, DIR_S };

/* Can a pawn step from cell in direction d (no wall, not off the board)? */
static int pawn_open(const qr_board *b, int cell, int d)
{
    int n = b->size;
    switch (d) {
    case DIR_E: return bb_test(b->open_e, cell);
    case DIR_W: return cell % n > 0 && bb_test(b->open_e, cell - 1);
    case DIR_N: return bb_test(b->open_n, cell);
    default: return cell >= n && bb_test(b->open_n, cell - n);
    }
}

static int pawn_delta(int n, int d)
{
    static const int sign[4] = {1, -1, 1, -1};
    return sign[d] * (d < DIR_N ? 1 : n);
}

/* Is the board edge (rather than a wall) what stops a step from cell in direction d? */
static int pawn_edge(int n, int cell, int d)
{
    int x = cell % n, y = cell / n;
    return (d == DIR_E && x == n - 1) || (d == DIR_W && x == 0) || (d == DIR_N && y == n - 1) ||
           (d == DIR_S && y == 0);
}

/* The opponent stands one step away in direction d: the straight jump, else the diagonals. */
static qr_bb pawn_around(const qr_board *b, int opp, int d)
{
    int n = b->size;
    qr_bb out = {{0, 0}};
    if (pawn_open(b, opp, d))
        return bb_cell(opp + pawn_delta(n, d));
    if (pawn_edge(n, opp, d) && !b->edge_diagonal)
        return out;
    for (int e = d < DIR_N ? DIR_N : DIR_E, k = 0; k < 2; k++, e++)
        if (pawn_open(b, opp, e))
            out = bb_or(out, bb_cell(opp + pawn_delta(n, e)));
    return out;
}

qr_bb qr_pawn_dests(const qr_board *b)
{
    int me = b->pawn[b->to_move], opp = b->pawn[!b->to_move], n = b->size;
    qr_bb out = {{0, 0}};
    for (int d = DIR_E; d <= DIR_S; d++) {
        if (!pawn_open(b, me, d))
            continue;
        int t = me + pawn_delta(n, d);
        out = bb_or(out, t == opp ? pawn_around(b, opp, d) : bb_cell(t));
    }
    return out;
}

int qr_board_pawn_moves(const qr_board *b, int *cells)
{
    qr_bb d = qr_pawn_dests(b);
    int k = 0;
    if (qr_board_winner(b) >= 0)
        return 0;
    for (; bb_any(d); k++) {
        cells[k] = bb_lowest(d);
        bb_flip(&d, cells[k]);
    }
    return k;
}

/* ---- Legality --------------------------------------------------------------------------- */

static int check_wall(const qr_board *b, int vertical, int slot, int full)
{
    uint64_t bit = 1ULL << slot;
    if (b->walls_left[b->to_move] <= 0)
        return QR_ERR_NO_WALLS;
    if (qr_walls_overlapped(b, vertical) & bit)
        return QR_ERR_OVERLAP;
    if ((vertical ? b->hwalls : b->vwalls) & bit)
        return QR_ERR_CROSS;
    if (!full && !(qr_walls_risky(b, vertical) & bit))
        return QR_OK;
    return qr_wall_keeps_paths(b, vertical, slot) ? QR_OK : QR_ERR_BLOCKS;
}

int qr_check(const qr_board *b, int move, int full)
{
    int vertical, slot;
    if (qr_board_winner(b) >= 0)
        return QR_ERR_GAME_OVER;
    if (move >= 0 && move < b->size * b->size)
        return bb_test(qr_pawn_dests(b), move) ? QR_OK : QR_ERR_PAWN;
    if (!qr_wall_decode(b, move, &vertical, &slot))
        return QR_ERR_OFF_BOARD;
    return check_wall(b, vertical, slot, full);
}

int qr_board_check(const qr_board *b, int move)
{
    return qr_check(b, move, 0);
}

int qr_board_legal_walls(const qr_board *b, int *moves)
{
    int k = 0;
    if (qr_board_winner(b) >= 0 || b->walls_left[b->to_move] <= 0)
        return 0;
    for (int v = 0; v < 2; v++) {
        uint64_t free = qr_geom_b(b)->slots & ~qr_walls_forbidden(b, v);
        uint64_t risky = qr_walls_risky(b, v);
        for (; free; free &= free - 1) {
            int s = __builtin_ctzll(free);
            if (!((risky >> s) & 1) || qr_wall_keeps_paths(b, v, s))
                moves[k++] = (v ? QR_WALL_V : QR_WALL_H) + s;
        }
    }
    return k;
}

int qr_board_legal_moves(const qr_board *b, int *moves)
{
    if (qr_board_winner(b) >= 0)
        return 0;
    int k = qr_board_pawn_moves(b, moves);
    return k + qr_board_legal_walls(b, moves + k);
}

/* ---- Play and undo ---------------------------------------------------------------------- */

/* Put the wall on or take it off (the same flips both ways). */
static void wall_toggle(qr_board *b, int vertical, int slot)
{
    const qr_geom *g = qr_geom_b(b);
    qr_bb *open = vertical ? &b->open_e : &b->open_n;
    open->w[0] ^= g->wall_cells[vertical][slot].w[0];
    open->w[1] ^= g->wall_cells[vertical][slot].w[1];
    *(vertical ? &b->vwalls : &b->hwalls) ^= 1ULL << slot;
    b->hash ^= g->zwall[vertical][slot];
}

static void walls_left_set(qr_board *b, int player, int count)
{
    const qr_geom *g = qr_geom_b(b);
    b->hash ^= g->zleft[player][b->walls_left[player]] ^ g->zleft[player][count];
    b->walls_left[player] = count;
}

void qr_board_play(qr_board *b, int move, qr_undo *u)
{
    const qr_geom *g = qr_geom_b(b);
    int me = b->to_move, vertical, slot;
    u->move = move;
    u->from = b->pawn[me];
    if (qr_wall_decode(b, move, &vertical, &slot)) {
        wall_toggle(b, vertical, slot);
        walls_left_set(b, me, b->walls_left[me] - 1);
    } else {
        b->hash ^= g->zpawn[me][b->pawn[me]] ^ g->zpawn[me][move];
        b->pawn[me] = move;
    }
    b->to_move = !me;
    b->hash ^= g->zto;
    b->ply++;
}

void qr_board_undo(qr_board *b, const qr_undo *u)
{
    const qr_geom *g = qr_geom_b(b);
    int me = !b->to_move, vertical, slot;
    b->ply--;
    b->hash ^= g->zto;
    b->to_move = me;
    if (qr_wall_decode(b, u->move, &vertical, &slot)) {
        walls_left_set(b, me, b->walls_left[me] + 1);
        wall_toggle(b, vertical, slot);
    } else {
        b->hash ^= g->zpawn[me][b->pawn[me]] ^ g->zpawn[me][u->from];
        b->pawn[me] = u->from;
    }
}
