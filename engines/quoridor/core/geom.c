/* geom.c - the fixed tables of each board size: masks of cells and slots, the cells each wall
   closes, the slots near each cell, and the Zobrist keys. Set up once (plat_run_once). */
#include "quoridor.h"
#include "internal.h"


/* One splitmix64 stream seeded with QR_ZOBRIST_SEED gives, in this order: the pawn keys of
   player 0 then player 1 (index y * 9 + x), the wall keys of horizontal then vertical walls
   (index y * 8 + x), the player-1-to-move key, and the walls-left keys of player 0 then
   player 1 (count 0..QR_MAX_WALLS). rules.py generates the same numbers. */
#define QR_ZOBRIST_SEED 0x5eed0c0a1d0aULL
#define ZSIDE QR_MAX_SIZE
#define ZSLOTS (QR_MAX_SIZE - 1)

static uint64_t zpawn[2][QR_MAX_CELLS], zwall[2][QR_MAX_SLOTS], zto, zleft[2][QR_MAX_WALLS + 1];
static qr_geom geoms[QR_MAX_SIZE + 1];
static plat_once geom_once = PLAT_ONCE_INIT;

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void zobrist_init(void)
{
    uint64_t st = QR_ZOBRIST_SEED;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < QR_MAX_CELLS; i++)
            zpawn[p][i] = splitmix64(&st);
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < QR_MAX_SLOTS; i++)
            zwall[o][i] = splitmix64(&st);
    zto = splitmix64(&st);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k <= QR_MAX_WALLS; k++)
            zleft[p][k] = splitmix64(&st);
}

static void geom_masks(qr_geom *g)
{
    int n = g->n, m = g->m;
    for (int i = 0; i < g->cells; i++)
        bb_flip(&g->all, i);
    for (int x = 0; x < n; x++) {
        bb_flip(&g->goal[0], (n - 1) * n + x);
        bb_flip(&g->goal[1], x);
    }
    g->slots = m * m == 64 ? ~0ULL : (1ULL << (m * m)) - 1;
    for (int k = 1; k <= 2; k++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                if (x < k)
                    g->scol_lo[k] |= 1ULL << (y * m + x);
                if (x >= m - k)
                    g->scol_hi[k] |= 1ULL << (y * m + x);
            }
}

static void geom_slots(qr_geom *g)
{
    int n = g->n, m = g->m;
    for (int y = 0; y < m; y++)
        for (int x = 0; x < m; x++) {
            int s = y * m + x, c = y * n + x;
            bb_flip(&g->wall_cells[0][s], c);          /* horizontal: north of c and c + 1 */
            bb_flip(&g->wall_cells[0][s], c + 1);
            bb_flip(&g->wall_cells[1][s], c);          /* vertical: east of c and c + n */
            bb_flip(&g->wall_cells[1][s], c + n);
            g->zwall[0][s] = zwall[0][y * ZSLOTS + x];
            g->zwall[1][s] = zwall[1][y * ZSLOTS + x];
        }
}

static void geom_cells(qr_geom *g)
{
    int n = g->n, m = g->m;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int c = y * n + x;
            for (int p = 0; p < 2; p++)
                g->zpawn[p][c] = zpawn[p][y * ZSIDE + x];
            for (int sy = y - 2; sy <= y + 1; sy++)
                for (int sx = x - 2; sx <= x + 1; sx++)
                    if (sx >= 0 && sy >= 0 && sx < m && sy < m)
                        g->near[c] |= 1ULL << (sy * m + sx);
        }
}

static void geom_init(void)
{
    zobrist_init();
    for (int size = QR_MIN_SIZE; size <= QR_MAX_SIZE; size += 2) {
        qr_geom *g = &geoms[size];
        g->n = size;
        g->m = size - 1;
        g->cells = size * size;
        geom_masks(g);
        geom_slots(g);
        geom_cells(g);
        g->zto = zto;
        for (int p = 0; p < 2; p++)
            for (int k = 0; k <= QR_MAX_WALLS; k++)
                g->zleft[p][k] = zleft[p][k];
    }
}

const qr_geom *qr_geom_of(int size)
{
    plat_run_once(&geom_once, geom_init);
    return &geoms[size];
}

uint64_t qr_zobrist_pawn(int player, int x, int y)
{
    plat_run_once(&geom_once, geom_init);
    return zpawn[player][y * ZSIDE + x];
}

uint64_t qr_zobrist_wall(int vertical, int x, int y)
{
    plat_run_once(&geom_once, geom_init);
    return zwall[vertical != 0][y * ZSLOTS + x];
}

uint64_t qr_zobrist_to_move(void)
{
    plat_run_once(&geom_once, geom_init);
    return zto;
}

uint64_t qr_zobrist_walls_left(int player, int count)
{
    plat_run_once(&geom_once, geom_init);
    return zleft[player][count];
}
