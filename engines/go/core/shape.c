/* shape.c - learned move priors: each legal move is described by its 3x3 shape (with atari
   bits) and a few small tactical classes; a table of strengths learned from game records
   (generalized Bradley-Terry "gammas", fitted by engines/go/learn_priors.py) turns those
   into a relative probability that a good player chooses the move. */
#include "go.h"
#include "internal.h"
#include "shape_gammas.h"

#include <string.h>

/* Cells around the move in key order: NW N NE W E SW S SE. */
static const int CELL_DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, CELL_DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

uint32_t go_shape_key(const go_board *b, int color, int point)
{
    int s = b->stride;
    uint32_t key = 0;
    for (int i = 0; i < 8; i++) {
        int q = point + CELL_DX[i] + CELL_DY[i] * s, c = b->color[q], v;
        if (c == GO_EMPTY)
            v = 0;
        else if (c == GO_BORDER)
            v = 3;
        else
            v = (c == color ? 1 : 2) | ((CELL_DX[i] == 0 || CELL_DY[i] == 0) && go_chain_in_atari(b, b->chain[q]) ? 4 : 0);
        key |= (uint32_t)v << (3 * i);
    }
    return key;
}

/* The key seen after symmetry sym (bit 0 transposes, bit 1 flips rows, bit 2 flips columns). */
static uint32_t shape_transform(uint32_t key, int sym)
{
    uint32_t out = 0;
    for (int i = 0; i < 8; i++) {
        int dx = CELL_DX[i], dy = CELL_DY[i], t;
        if (sym & 1) { t = dx; dx = dy; dy = t; }
        if (sym & 2) dy = -dy;
        if (sym & 4) dx = -dx;
        int j = 0;
        while (CELL_DX[j] != dx || CELL_DY[j] != dy)
            j++;
        out |= ((key >> (3 * i)) & 7u) << (3 * j);
    }
    return out;
}

uint32_t go_shape_canonical(uint32_t key)
{
    uint32_t best = key;
    for (int sym = 1; sym < 8; sym++) {
        uint32_t k = shape_transform(key, sym);
        if (k < best)
            best = k;
    }
    return best;
}

void go_move_classes(const go_board *b, int color, int point, const uint8_t *marks, uint8_t *cls)
{
    int f = go_move_features(b, color, point), s = b->stride, own = 0, libs[3];
    int nb[4] = {point - 1, point + 1, point - s, point + s};
    memset(cls, 0, GO_CLASS_GROUPS);
    cls[GO_CLASS_CAPTURE] = f & GO_F_CAPTURE_BIG ? 2 : f & GO_F_CAPTURE ? 1 : 0;
    cls[GO_CLASS_ESCAPE] = f & GO_F_LADDER ? 2 : f & GO_F_ESCAPE ? 1 : 0;
    for (int i = 0; i < 4; i++) {
        own |= b->color[nb[i]] == color;
        if (b->color[nb[i]] == go_other(color) && b->plib[b->chain[nb[i]]] <= 8 &&
            go_board_libs(b, nb[i], 3, libs) == 2)   /* two liberties: at most 8 pseudo */
            cls[GO_CLASS_ATARI] = 1;
    }
    if (f & GO_F_SELF_ATARI)
        cls[GO_CLASS_SELF_ATARI] = own ? 2 : 1;   /* a chain, or a lone stone */
    cls[GO_CLASS_MARK] = marks ? (marks[point] & 3) : 0;
    cls[GO_CLASS_OWN_EYE] = (f & GO_F_OWN_EYE) != 0;
    int x, y;
    go_xy(b, point, &x, &y);
    for (int k = 0; k < 2; k++) {
        int m = k ? b->last_move2 : b->last_move, d = 0;
        if (m > 0) {
            int mx, my;
            go_xy(b, m, &mx, &my);
            d = (x > mx ? x - mx : mx - x) + (y > my ? y - my : my - y);
            d = d > 4 ? 0 : d;
        }
        cls[k ? GO_CLASS_DIST2 : GO_CLASS_DIST1] = (uint8_t)d;
    }
    int line = x < y ? x : y, far = b->size - 1 - (x > y ? x : y);
    line = far < line ? far : line;
    cls[GO_CLASS_LINE] = (uint8_t)(line > 3 ? 3 : line);
}

/* ---- The learned table, expanded to every symmetric variant for one probe per move --------- */

#define SHAPE_HASH_BITS 16
#define SHAPE_HASH (1u << SHAPE_HASH_BITS)
static uint32_t hash_key[SHAPE_HASH];   /* key + 1; 0 marks a free slot */
static float hash_gamma[SHAPE_HASH];
static plat_once shape_once = PLAT_ONCE_INIT;

static inline uint32_t slot_of(uint32_t key) { return (key * 2654435761u) >> (32 - SHAPE_HASH_BITS); }

static void shape_init(void)
{
    for (unsigned i = 0; i < sizeof SHAPE_KEYS / sizeof SHAPE_KEYS[0]; i++)
        for (int sym = 0; sym < 8; sym++) {
            uint32_t k = shape_transform(SHAPE_KEYS[i], sym), h = slot_of(k);
            while (hash_key[h] && hash_key[h] != k + 1)
                h = (h + 1) & (SHAPE_HASH - 1);
            hash_key[h] = k + 1;
            hash_gamma[h] = SHAPE_GAMMAS[i];
        }
}

void go_shape_init(void) { plat_run_once(&shape_once, shape_init); }

float go_move_gamma(const go_board *b, int color, int point, const uint8_t *marks)
{
    uint8_t cls[GO_CLASS_GROUPS];
    uint32_t key = go_shape_key(b, color, point), h = slot_of(key);
    float g = SHAPE_GAMMA_RARE;
    while (hash_key[h]) {
        if (hash_key[h] == key + 1) {
            g = hash_gamma[h];
            break;
        }
        h = (h + 1) & (SHAPE_HASH - 1);
    }
    go_move_classes(b, color, point, marks, cls);
    for (int k = 0; k < GO_CLASS_GROUPS; k++)
        g *= CLASS_GAMMAS[k][cls[k]];
    return g;
}
