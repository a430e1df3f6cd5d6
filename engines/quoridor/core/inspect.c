/* inspect.c - read-only views of the core for tests and tools: contact points of a wall, the
   legality check without its shortcut, distance maps, the searches' impact walls and the tree
   search's blocks. Declared in quoridor.h's binding section; the fuzz harness compiles and
   calls them too. */
#include "quoridor.h"
#include "internal.h"

int qr_board_wall_contacts(const qr_board *b, int move)
{
    int vertical, slot, n = 0;
    uint64_t c[3];
    if (!qr_wall_decode(b, move, &vertical, &slot))
        return -1;
    qr_walls_contacts(b, vertical, 1, c);
    for (int i = 0; i < 3; i++)
        n += (int)((c[i] >> slot) & 1);
    return n;
}

int qr_board_check_full(const qr_board *b, int move)
{
    return qr_check(b, move, 1);
}

void qr_board_distances(const qr_board *b, int player, int *dist)
{
    qr_bb reach[QR_MAX_CELLS];
    int layers = qr_path_layers(b, player, reach), cells = b->size * b->size;
    for (int i = 0; i < cells; i++) {
        dist[i] = -1;
        for (int k = 0; k < layers && dist[i] < 0; k++)
            if (bb_test(reach[k], i))
                dist[i] = k;
    }
}

/* b's paths for the wall generators; 0 when the game is over (nothing to generate). */
static int inspect_paths(const qr_board *b, qr_gen_paths *paths)
{
    int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
    if (qr_board_winner(b) >= 0 || d[0] < 0 || d[1] < 0)
        return 0;
    qr_search_gen_paths(b, d, paths);
    return 1;
}

/* As the tree search finds them (mcts.c's own_children), against the other side's threats. */
int qr_board_blocks(const qr_board *b, int *moves)
{
    qr_gen_move threats[2 * QR_MAX_SLOTS], blocks[2 * QR_MAX_SLOTS];
    qr_board other;
    qr_gen_paths paths;
    if (!inspect_paths(b, &paths))
        return 0;
    int nt = qr_search_gen_threats(b, &paths, threats, &other);
    int n = qr_search_gen_blocks(b, &paths, threats, nt, blocks, 2 * QR_MAX_SLOTS);
    for (int i = 0; i < n; i++)
        moves[i] = blocks[i].move;
    return n;
}

int qr_board_impact_walls(const qr_board *b, int *moves, int *lengths)
{
    qr_gen_move walls[2 * QR_MAX_SLOTS];
    qr_gen_paths paths;
    if (!inspect_paths(b, &paths))
        return 0;
    int n = qr_search_gen_walls(b, &paths, walls, 2 * QR_MAX_SLOTS);
    for (int i = 0; i < n; i++) {
        moves[i] = walls[i].move;
        lengths[2 * i] = walls[i].d[0];
        lengths[2 * i + 1] = walls[i].d[1];
    }
    return n;
}
