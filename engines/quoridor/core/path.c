/* path.c - shortest paths by breadth-first search over cell bitboards, and the wall tests
   built on them: overlap and cross masks, contact points, the path-cut check. */
#include "quoridor.h"
#include "internal.h"

/* ---- Paths -------------------------------------------------------------------------------- */

int qr_path_bfs(const qr_geom *g, qr_bb open_e, qr_bb open_n, int cell, qr_bb goal)
{
    qr_bb seen = bb_cell(cell), front = seen;
    if (bb_test(goal, cell))
        return 0;
    for (int d = 1;; d++) {
        front = bb_andn(qr_step(g, front, open_e, open_n), seen);
        if (!bb_any(front))
            return -1;
        if (bb_any(bb_and(front, goal)))
            return d;
        seen = bb_or(seen, front);
    }
}

int qr_path_layers(const qr_board *b, int player, qr_bb *reach)
{
    const qr_geom *g = qr_geom_b(b);
    qr_bb front = g->goal[player];
    int k = 0;
    reach[0] = front;
    for (;;) {
        front = bb_andn(qr_step(g, front, b->open_e, b->open_n), reach[k]);
        if (!bb_any(front))
            return k + 1;
        reach[k + 1] = bb_or(reach[k], front);
        k++;
    }
}

int qr_board_path_length(const qr_board *b, int player)
{
    const qr_geom *g = qr_geom_b(b);
    return qr_path_bfs(g, b->open_e, b->open_n, b->pawn[player], g->goal[player]);
}

/* The open steps from cell c in rules.py's order (east, west, north, south); returns the count. */
static int path_neighbours(const qr_board *b, int c, int *out)
{
    int n = b->size, k = 0;
    if (bb_test(b->open_e, c))
        out[k++] = c + 1;
    if (c % n > 0 && bb_test(b->open_e, c - 1))
        out[k++] = c - 1;
    if (bb_test(b->open_n, c))
        out[k++] = c + n;
    if (c >= n && bb_test(b->open_n, c - n))
        out[k++] = c - n;
    return k;
}

/* The cells from the start (excluded) to cell along parent[], into cells; returns the count. */
static int path_trace(const int *parent, int cell, int *cells)
{
    int steps = 0;
    for (int c = cell; parent[c] >= 0; c = parent[c])
        steps++;
    for (int i = steps - 1, c = cell; i >= 0; i--, c = parent[c])
        cells[i] = c;
    return steps;
}

int qr_board_shortest_path(const qr_board *b, int player, int *cells)
{
    const qr_geom *g = qr_geom_b(b);
    int parent[QR_MAX_CELLS], queue[QR_MAX_CELLS], head = 0, tail = 0, next[4];
    for (int i = 0; i < g->cells; i++)
        parent[i] = -2; /* not reached; the start's parent is -1 */
    parent[b->pawn[player]] = -1;
    queue[tail++] = b->pawn[player];
    while (head < tail) {
        int c = queue[head++];
        if (bb_test(g->goal[player], c))
            return path_trace(parent, c, cells);
        for (int i = 0, k = path_neighbours(b, c, next); i < k; i++)
            if (parent[next[i]] == -2) {
                parent[next[i]] = c;
                queue[tail++] = next[i];
            }
    }
    return -1;
}

/* ---- Walls -------------------------------------------------------------------------------- */

uint64_t qr_walls_overlapped(const qr_board *b, int vertical)
{
    const qr_geom *g = qr_geom_b(b);
    uint64_t same = vertical ? b->vwalls : b->hwalls;
    int dx = vertical ? 0 : 1, dy = vertical ? 1 : 0;
    return same | qr_slots_shift(g, same, dx, dy) | qr_slots_shift(g, same, -dx, -dy);
}

uint64_t qr_walls_forbidden(const qr_board *b, int vertical)
{
    return qr_walls_overlapped(b, vertical) | (vertical ? b->hwalls : b->vwalls);
}

/* Horizontal slot (x, y) runs from corner (x, y + 1) to (x + 2, y + 1). Its first end touches
   the west edge, a horizontal wall at (x - 2, y) or a vertical one at (x - 1, y - 1..y + 1);
   its second end the east edge, (x + 2, y) or (x + 1, y - 1..y + 1); its middle a vertical
   wall at (x, y - 1) or (x, y + 1). A vertical slot is the same with x and y swapped. */
void qr_walls_contacts(const qr_board *b, int vertical, int with_edge, uint64_t out[3])
{
    const qr_geom *g = qr_geom_b(b);
    uint64_t same = vertical ? b->vwalls : b->hwalls, other = vertical ? b->hwalls : b->vwalls;
    uint64_t row_lo = (1ULL << g->m) - 1, row_hi = row_lo << (g->m * (g->m - 1));
    uint64_t edge1 = vertical ? row_lo : g->scol_lo[1], edge2 = vertical ? row_hi : g->scol_hi[1];
    int ax = vertical ? 0 : 1, ay = vertical ? 1 : 0;       /* along the wall */
    out[0] = qr_slots_shift(g, same, 2 * ax, 2 * ay);
    out[1] = qr_slots_shift(g, same, -2 * ax, -2 * ay);
    out[2] = qr_slots_shift(g, other, ay, ax) | qr_slots_shift(g, other, -ay, -ax);
    for (int d = -1; d <= 1; d++) {
        out[0] |= qr_slots_shift(g, other, ax + d * ay, ay + d * ax);
        out[1] |= qr_slots_shift(g, other, -ax + d * ay, -ay + d * ax);
    }
    if (with_edge) {
        out[0] |= edge1;
        out[1] |= edge2;
    }
}

uint64_t qr_walls_risky(const qr_board *b, int vertical)
{
    uint64_t c[3];
    qr_walls_contacts(b, vertical, 1, c);
    return (c[0] & c[1]) | (c[0] & c[2]) | (c[1] & c[2]);
}

void qr_open_after_wall(const qr_board *b, int vertical, int slot, qr_bb *oe, qr_bb *on)
{
    const qr_geom *g = qr_geom_b(b);
    *oe = b->open_e;
    *on = b->open_n;
    if (vertical)
        *oe = bb_andn(*oe, g->wall_cells[1][slot]);
    else
        *on = bb_andn(*on, g->wall_cells[0][slot]);
}

int qr_wall_keeps_paths(const qr_board *b, int vertical, int slot)
{
    const qr_geom *g = qr_geom_b(b);
    qr_bb oe, on;
    qr_open_after_wall(b, vertical, slot, &oe, &on);
    return qr_path_bfs(g, oe, on, b->pawn[0], g->goal[0]) >= 0 &&
           qr_path_bfs(g, oe, on, b->pawn[1], g->goal[1]) >= 0;
}
