/* board.c - rules on a flat array: chains as cyclic lists, pseudo-liberties, Zobrist. */
#include "go.h"
#include "internal.h"

#include <stddef.h>
#include <string.h>

/* ---- Zobrist tables ------------------------------------------------------------------ */

/* One fixed table for every size: key(color, x, y) = splitmix64 stream seeded with
   GO_ZOBRIST_SEED, entry (color - 1) * 361 + y * 19 + x; then white-to-move; then 361 ko keys.
   rules.py generates the same numbers. */
#define GO_ZOBRIST_SEED 0x5eed60ba11ULL
#define ZCELLS (GO_MAX_SIZE * GO_MAX_SIZE)

static uint64_t zob_stone[2][ZCELLS], zob_white, zob_ko_xy[ZCELLS];
static uint64_t zob_by_size[GO_MAX_SIZE + 1][3 * GO_MAX_POINTS];
static plat_once zob_once = PLAT_ONCE_INIT;

static void zob_init(void)
{
    uint64_t st = GO_ZOBRIST_SEED;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < ZCELLS; i++)
            zob_stone[c][i] = go_splitmix64(&st);
    zob_white = go_splitmix64(&st);
    for (int i = 0; i < ZCELLS; i++)
        zob_ko_xy[i] = go_splitmix64(&st);
    /* Per-size tables by board index: [GO_EMPTY] holds ko keys, [BLACK], [WHITE] stones. */
    for (int size = GO_MIN_SIZE; size <= GO_MAX_SIZE; size++) {
        int stride = size + 2;
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                int p = (y + 1) * stride + x + 1, k = y * GO_MAX_SIZE + x;
                zob_by_size[size][GO_EMPTY * GO_MAX_POINTS + p] = zob_ko_xy[k];
                zob_by_size[size][GO_BLACK * GO_MAX_POINTS + p] = zob_stone[0][k];
                zob_by_size[size][GO_WHITE * GO_MAX_POINTS + p] = zob_stone[1][k];
            }
    }
}

uint64_t go_zobrist_stone(int color, int x, int y)
{
    plat_run_once(&zob_once, zob_init);
    return zob_stone[color - 1][y * GO_MAX_SIZE + x];
}

uint64_t go_zobrist_white_to_move(void)
{
    plat_run_once(&zob_once, zob_init);
    return zob_white;
}

uint64_t go_zobrist_ko(int x, int y)
{
    plat_run_once(&zob_once, zob_init);
    return zob_ko_xy[y * GO_MAX_SIZE + x];
}

/* ---- Geometry ------------------------------------------------------------------------ */

int go_point(const go_board *b, int x, int y) { return (y + 1) * b->stride + x + 1; }

void go_xy(const go_board *b, int point, int *x, int *y)
{
    *x = point % b->stride - 1;
    *y = point / b->stride - 1;
}

#define NEIGHBORS(b, p) {(p) - 1, (p) + 1, (p) - (b)->stride, (p) + (b)->stride}

/* ---- Set up and copy ------------------------------------------------------------------ */

int go_board_init(go_board *b, int size)
{
    if (size < GO_MIN_SIZE || size > GO_MAX_SIZE)
        return GO_ERR_SIZE;
    plat_run_once(&zob_once, zob_init);
    memset(b, 0, sizeof *b);
    b->size = size;
    b->stride = size + 2;
    b->npoints = b->stride * b->stride;
    b->to_move = GO_BLACK;
    b->last_move = b->last_move2 = -1;
    b->zob = zob_by_size[size];
    for (int p = 0; p < b->npoints; p++) {
        int x, y;
        go_xy(b, p, &x, &y);
        if (x < 0 || y < 0 || x >= size || y >= size) {
            b->color[p] = GO_BORDER;
        } else {
            b->color[p] = GO_EMPTY;
            b->empty_pos[p] = (uint16_t)b->nempty;
            b->empty[b->nempty++] = (uint16_t)p;
        }
    }
    return GO_OK;
}

void go_board_copy(go_board *dst, const go_board *src)
{
    int n = src->npoints;
    memcpy(dst, src, offsetof(go_board, color));
    memcpy(dst->color, src->color, n);
    memcpy(dst->chain, src->chain, n * sizeof(uint16_t));
    memcpy(dst->next, src->next, n * sizeof(uint16_t));
    memcpy(dst->csize, src->csize, n * sizeof(uint16_t));
    memcpy(dst->plib, src->plib, n * sizeof(uint16_t));
    memcpy(dst->lsum, src->lsum, n * sizeof(int32_t));
    memcpy(dst->lsq, src->lsq, n * sizeof(int32_t));
    memcpy(dst->empty, src->empty, src->nempty * sizeof(uint16_t));
    memcpy(dst->empty_pos, src->empty_pos, n * sizeof(uint16_t));
}

/* ---- Chains and liberties ------------------------------------------------------------- */

static inline void lib_add(go_board *b, int head, int lib)
{
    b->plib[head]++;
    b->lsum[head] += lib;
    b->lsq[head] += lib * lib;
}

static inline void lib_remove(go_board *b, int head, int lib)
{
    b->plib[head]--;
    b->lsum[head] -= lib;
    b->lsq[head] -= lib * lib;
}

static inline int atari_lib(const go_board *b, int head) { return b->lsum[head] / b->plib[head]; }

static void empty_remove(go_board *b, int p)
{
    int i = b->empty_pos[p], last = b->empty[--b->nempty];
    b->empty[i] = (uint16_t)last;
    b->empty_pos[last] = (uint16_t)i;
}

static void empty_add(go_board *b, int p)
{
    b->empty_pos[p] = (uint16_t)b->nempty;
    b->empty[b->nempty++] = (uint16_t)p;
}

/* Union by size: the smaller chain's stones take the larger chain's head. */
static void chain_merge(go_board *b, int h1, int h2)
{
    if (b->csize[h1] < b->csize[h2]) {
        int t = h1; h1 = h2; h2 = t;
    }
    int s = h2;
    do {
        b->chain[s] = (uint16_t)h1;
        s = b->next[s];
    } while (s != h2);
    uint16_t t = b->next[h1];
    b->next[h1] = b->next[h2];
    b->next[h2] = t;
    b->csize[h1] += b->csize[h2];
    b->plib[h1] += b->plib[h2];
    b->lsum[h1] += b->lsum[h2];
    b->lsq[h1] += b->lsq[h2];
}

/* Remove a captured chain; neighbours regain the freed points as pseudo-liberties. */
static int chain_capture(go_board *b, int head)
{
    int n = 0, s = head, col = b->color[head];
    do {
        b->color[s] = GO_EMPTY;
        b->pos_hash ^= b->zob[col * GO_MAX_POINTS + s];
        empty_add(b, s);
        n++;
        s = b->next[s];
    } while (s != head);
    s = head;
    do {
        int nb[4] = NEIGHBORS(b, s);
        for (int i = 0; i < 4; i++) {
            int c = b->color[nb[i]];
            if (c == GO_BLACK || c == GO_WHITE)
                lib_add(b, b->chain[nb[i]], s);
        }
        s = b->next[s];
    } while (s != head);
    return n;
}

int go_board_libs(const go_board *b, int point, int limit, int *libs)
{
    /* Tactics ask for a few liberties: checking those already found beats clearing a mark
       for every point, which only pays for long counts. */
    int small = limit <= 8, found[8], n = 0, head = b->chain[point], s = head;
    uint8_t seen[GO_MAX_POINTS];
    if (!small)
        memset(seen, 0, b->npoints);
    do {
        int nb[4] = NEIGHBORS(b, s);
        for (int i = 0; i < 4; i++) {
            int q = nb[i], dup = 0;
            if (b->color[q] != GO_EMPTY)
                continue;
            if (small) {
                for (int k = 0; k < n && !dup; k++)
                    dup = found[k] == q;
                found[n] = q;   /* n < limit <= 8; a duplicate only fills the next free slot */
            } else {
                dup = seen[q];
                seen[q] = 1;
            }
            if (dup)
                continue;
            if (libs)
                libs[n] = q;
            if (++n >= limit)
                return n;
        }
        s = b->next[s];
    } while (s != head);
    return n;
}

/* ---- Legality and play ---------------------------------------------------------------- */

int go_board_check(const go_board *b, int color, int point)
{
    if (point == GO_PASS)
        return GO_OK;
    if (point < 0 || point >= b->npoints || b->color[point] == GO_BORDER)
        return GO_ERR_OFF_BOARD;
    if (b->color[point] != GO_EMPTY)
        return GO_ERR_OCCUPIED;
    if (point == b->ko && color == b->to_move)
        return GO_ERR_KO;
    int nb[4] = NEIGHBORS(b, point);
    for (int i = 0; i < 4; i++) {
        int q = nb[i], c = b->color[q];
        if (c == GO_EMPTY)
            return GO_OK;
        if (c == GO_BORDER)
            continue;
        int h = b->chain[q], atari = go_chain_in_atari(b, h);
        if (c == color && !atari)
            return GO_OK;        /* joins a chain that keeps another liberty */
        if (c != color && atari)
            return GO_OK;        /* captures */
    }
    return GO_ERR_SUICIDE;
}

int go_board_play(go_board *b, int color, int point)
{
    b->last_move2 = b->last_move;
    b->last_move = point;
    b->ko = 0;
    b->to_move = go_other(color);
    if (point == GO_PASS) {
        b->passes++;
        return 0;
    }
    b->passes = 0;
    b->color[point] = (uint8_t)color;
    b->pos_hash ^= b->zob[color * GO_MAX_POINTS + point];
    empty_remove(b, point);
    b->chain[point] = b->next[point] = (uint16_t)point;
    b->csize[point] = 1;
    b->plib[point] = 0;
    b->lsum[point] = b->lsq[point] = 0;
    int nb[4] = NEIGHBORS(b, point);
    for (int i = 0; i < 4; i++) {
        int q = nb[i], c = b->color[q];
        if (c == GO_EMPTY)
            lib_add(b, point, q);
        else if (c != GO_BORDER)
            lib_remove(b, b->chain[q], point);
    }
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == color && b->chain[q] != b->chain[point])
            chain_merge(b, b->chain[q], b->chain[point]);
    }
    int captured = 0, last_cap = 0, other = go_other(color);
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == other && b->plib[b->chain[q]] == 0) {
            captured += chain_capture(b, b->chain[q]);
            last_cap = q;
        }
    }
    b->captures[color] += captured;
    /* Ko: one stone captured by a lone stone that now has that point as its only liberty. */
    int h = b->chain[point];
    if (captured == 1 && b->csize[h] == 1 && go_chain_in_atari(b, h) && atari_lib(b, h) == last_cap)
        b->ko = last_cap;
    return captured;
}

uint64_t go_board_hash(const go_board *b)
{
    uint64_t h = b->pos_hash;
    if (b->to_move == GO_WHITE)
        h ^= zob_white;
    if (b->ko)
        h ^= b->zob[GO_EMPTY * GO_MAX_POINTS + b->ko];
    return h;
}

/* ---- Eyes and scoring ----------------------------------------------------------------- */

int go_board_is_eye(const go_board *b, int color, int point)
{
    if (b->color[point] != GO_EMPTY)
        return 0;
    int nb[4] = NEIGHBORS(b, point);
    for (int i = 0; i < 4; i++) {
        int c = b->color[nb[i]];
        if (c != color && c != GO_BORDER)
            return 0;
    }
    /* Diagonals: at most one enemy (none on the edge) keeps the eye true. */
    int s = b->stride, diag[4] = {point - s - 1, point - s + 1, point + s - 1, point + s + 1};
    int enemy = 0, border = 0;
    for (int i = 0; i < 4; i++) {
        int c = b->color[diag[i]];
        if (c == GO_BORDER)
            border = 1;
        else if (c == go_other(color))
            enemy++;
    }
    return enemy + border < 2;
}

/* The empty region around empty point p, marked in seen: its size; the colours it touches
   (GO_BLACK | GO_WHITE bits) in *touch. */
static int region_fill(const go_board *b, int p, uint8_t *seen, int *touch)
{
    uint16_t stack[GO_MAX_POINTS];
    int sp = 0, n = 0;
    *touch = 0;
    stack[sp++] = (uint16_t)p;
    seen[p] = 1;
    while (sp) {
        int q = stack[--sp];
        n++;
        int nb[4] = NEIGHBORS(b, q);
        for (int i = 0; i < 4; i++) {
            int r = nb[i], rc = b->color[r];
            if (rc == GO_EMPTY && !seen[r]) {
                seen[r] = 1;
                stack[sp++] = (uint16_t)r;
            } else if (rc == GO_BLACK || rc == GO_WHITE) {
                *touch |= rc;
            }
        }
    }
    return n;
}

int go_board_area(const go_board *b)
{
    /* Each empty region counts for a color if it touches only that color. */
    uint8_t seen[GO_MAX_POINTS];
    int score = 0;
    memset(seen, 0, b->npoints);
    for (int p = 0; p < b->npoints; p++) {
        int c = b->color[p], touch;
        if (c == GO_BLACK)
            score++;
        else if (c == GO_WHITE)
            score--;
        if (c != GO_EMPTY || seen[p])
            continue;
        int n = region_fill(b, p, seen, &touch);
        if (touch == GO_BLACK)
            score += n;
        else if (touch == GO_WHITE)
            score -= n;
    }
    return score;
}

int go_board_region_touch(const go_board *b, int point)
{
    uint8_t seen[GO_MAX_POINTS];
    int touch;
    if (b->color[point] != GO_EMPTY)
        return 0;
    memset(seen, 0, b->npoints);
    region_fill(b, point, seen, &touch);
    return touch;
}
