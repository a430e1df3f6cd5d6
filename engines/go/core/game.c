/* game.c - a game record over the board: history, undo by replay, positional superko,
   Tromp-Taylor and dead-stone-aware scoring, Benson's pass-alive test. */
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
    go_rng rng;
    go_search *search;
};

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

go_game *go_game_new(int size, double komi, int superko, uint64_t seed)
{
    go_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->komi = komi;
    g->superko = superko;
    go_rng_seed(&g->rng, seed);
    g->search = go_search_new();
    if (!g->search || game_reserve(g, 512) != GO_OK || go_game_clear(g, size) != GO_OK) {
        go_game_free(g);
        return NULL;
    }
    return g;
}

void go_game_free(go_game *g)
{
    if (!g)
        return;
    go_search_free(g->search);
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
    go_search_reset(g);
    return GO_OK;
}

void go_game_set_komi(go_game *g, double komi)
{
    if (komi != g->komi)
        go_search_reset(g);   /* the tree's values were measured against the old komi */
    g->komi = komi;
}
double go_game_komi(const go_game *g) { return g->komi; }
void go_game_set_superko(go_game *g, int on) { g->superko = on; }
const go_board *go_game_board(const go_game *g) { return &g->board; }
go_search *go_game_search(go_game *g) { return g->search; }
go_rng *go_game_rng(go_game *g) { return &g->rng; }
int go_game_superko(const go_game *g) { return g->superko; }
int go_game_nmoves(const go_game *g) { return g->nmoves; }
int go_game_move_point(const go_game *g, int i) { return g->mpoint[i]; }

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

/* Would color at point repeat an earlier position of this game? (point assumed legal) */
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

/* ---- Benson's pass-alive chains ------------------------------------------------------------ */

/* Chains of color that cannot be captured even if color always passes: each keeps two
   "vital" enclosed regions (every empty point of the region is its liberty) whose every
   bordering chain is itself still alive. Marks alive stones in alive[point]. */
static void benson_color(const go_board *b, int color, uint8_t *alive)
{
    int np = b->npoints, nreg = 0, nch = 0;
    int16_t *region = malloc(np * sizeof *region);
    int16_t *chidx = malloc(np * sizeof *chidx);
    int *reg_empty = calloc(np, sizeof *reg_empty);
    uint16_t *cnt = calloc((size_t)np * np, sizeof *cnt);   /* cnt[r * np + k] */
    uint8_t *borders = calloc((size_t)np * np, 1);
    uint8_t *reg_ok = malloc(np), *ch_ok = malloc(np);
    uint16_t *stack = malloc(np * sizeof *stack);
    int *heads = malloc(np * sizeof *heads);
    if (!region || !chidx || !reg_empty || !cnt || !borders || !reg_ok || !ch_ok || !stack || !heads)
        goto out;
    for (int p = 0; p < np; p++) {
        region[p] = chidx[p] = -1;
        if (b->color[p] == color && b->chain[p] == p) {
            heads[nch] = p;
            chidx[p] = (int16_t)nch++;
        }
    }
    for (int p = 0; p < np; p++)
        if (b->color[p] == color)
            chidx[p] = chidx[b->chain[p]];
    /* Regions: maximal connected sets of points that are not color (and not border). */
    for (int p = 0; p < np; p++) {
        int c = b->color[p];
        if (c == color || c == GO_BORDER || region[p] >= 0)
            continue;
        int sp = 0, r = nreg++;
        stack[sp++] = (uint16_t)p;
        region[p] = (int16_t)r;
        while (sp) {
            int q = stack[--sp];
            int nb[4] = {q - 1, q + 1, q - b->stride, q + b->stride};
            int seen[4], ns = 0;
            for (int i = 0; i < 4; i++) {
                int t = nb[i], tc = b->color[t];
                if (tc == color) {
                    int k = chidx[t], dup = 0;
                    borders[r * np + k] = 1;
                    for (int j = 0; j < ns; j++)
                        dup |= seen[j] == k;
                    if (!dup && b->color[q] == GO_EMPTY) {
                        seen[ns++] = k;
                        cnt[r * np + k]++;
                    }
                } else if (tc != GO_BORDER && region[t] < 0) {
                    region[t] = (int16_t)r;
                    stack[sp++] = (uint16_t)t;
                }
            }
            if (b->color[q] == GO_EMPTY)
                reg_empty[r]++;
        }
    }
    memset(reg_ok, 1, np);
    memset(ch_ok, 1, np);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < nch; k++) {
            if (!ch_ok[k])
                continue;
            int vital = 0;
            for (int r = 0; r < nreg; r++)
                if (reg_ok[r] && borders[r * np + k] && reg_empty[r] > 0 &&
                    cnt[r * np + k] == reg_empty[r])
                    vital++;
            if (vital < 2) {
                ch_ok[k] = 0;
                changed = 1;
            }
        }
        for (int r = 0; r < nreg; r++) {
            if (!reg_ok[r])
                continue;
            for (int k = 0; k < nch; k++)
                if (borders[r * np + k] && !ch_ok[k]) {
                    reg_ok[r] = 0;
                    changed = 1;
                    break;
                }
        }
    }
    for (int p = 0; p < np; p++)
        if (b->color[p] == color && ch_ok[chidx[p]])
            alive[p] = 1;
out:
    free(region); free(chidx); free(reg_empty); free(cnt); free(borders);
    free(reg_ok); free(ch_ok); free(stack); free(heads);
}

void go_game_pass_alive(const go_game *g, uint8_t *out)
{
    const go_board *b = &g->board;
    uint8_t alive[GO_MAX_POINTS];
    memset(alive, 0, sizeof alive);
    benson_color(b, GO_BLACK, alive);
    benson_color(b, GO_WHITE, alive);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++)
            out[y * b->size + x] = alive[go_point(b, x, y)];
}

/* ---- Ownership, dead stones, final score ---------------------------------------------------- */

void go_game_ownership(go_game *g, int playouts, float *own)
{
    const go_board *b = &g->board;
    int n = b->size * b->size;
    double *sum = calloc(n, sizeof *sum);
    if (!sum)
        return;
    if (playouts < 1)
        playouts = 1;
    go_board tmp;
    for (int i = 0; i < playouts; i++) {
        go_board_copy(&tmp, b);
        tmp.passes = 0;
        go_playout_run(&tmp, GO_POLICY_HEAVY, &g->rng, NULL, 0, NULL);
        for (int y = 0; y < b->size; y++)
            for (int x = 0; x < b->size; x++) {
                int p = go_point(&tmp, x, y), c = tmp.color[p];
                if (c == GO_EMPTY) {
                    int t = 0, nb[4] = {p - 1, p + 1, p - tmp.stride, p + tmp.stride};
                    for (int k = 0; k < 4; k++)
                        if (tmp.color[nb[k]] != GO_BORDER)
                            t |= tmp.color[nb[k]];
                    c = t;
                }
                sum[y * b->size + x] += c == GO_BLACK ? 1 : c == GO_WHITE ? -1 : 0;
            }
    }
    for (int i = 0; i < n; i++)
        own[i] = (float)(sum[i] / playouts);
    free(sum);
}

int go_game_dead_stones(go_game *g, int playouts, uint8_t *out)
{
    const go_board *b = &g->board;
    int n = b->size * b->size, ndead = 0;
    float *own = malloc(n * sizeof *own);
    uint8_t *alive = malloc(n);
    if (!own || !alive) {
        free(own); free(alive);
        return 0;
    }
    go_game_ownership(g, playouts, own);
    go_game_pass_alive(g, alive);
    memset(out, 0, n);
    /* Judge whole chains by their mean ownership, so a chain is never half dead. */
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = go_point(b, x, y), c = b->color[p];
            if ((c != GO_BLACK && c != GO_WHITE) || b->chain[p] != p)
                continue;
            double sum = 0;
            int k = 0, s = p;
            do {
                int sx, sy;
                go_xy(b, s, &sx, &sy);
                sum += own[sy * b->size + sx];
                k++;
                s = b->next[s];
            } while (s != p);
            double mean = sum / k * (c == GO_BLACK ? 1 : -1);
            if (mean >= -0.2 || alive[y * b->size + x])
                continue;
            s = p;
            do {
                int sx, sy;
                go_xy(b, s, &sx, &sy);
                out[sy * b->size + sx] = 1;
                ndead++;
                s = b->next[s];
            } while (s != p);
        }
    free(own);
    free(alive);
    return ndead;
}

double go_game_final_score(go_game *g, int playouts)
{
    go_board *b = &g->board;
    int n = b->size * b->size;
    uint8_t *dead = malloc(n);
    if (!dead)
        return go_game_tromp_taylor(g);
    go_game_dead_stones(g, playouts, dead);
    /* Score a copy with the dead stones taken off (replayed as captures would be). */
    go_board tmp;
    go_board_init(&tmp, b->size);
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = go_point(b, x, y);
            if (b->color[p] != GO_EMPTY && !dead[y * b->size + x])
                tmp.color[p] = b->color[p];
        }
    free(dead);
    return go_board_area(&tmp) - g->komi;
}
