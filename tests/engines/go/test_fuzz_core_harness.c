/* Fuzz harness for the Go core's C API, built by test_fuzz_core.py with AddressSanitizer and
   UBSan: random call sequences (valid and invalid), with the board's internal invariants
   (chains, pseudo-liberties, empty list, Zobrist hash) recomputed after every change.
   Usage: harness SEED ITERATIONS. Exit 0 when every check held. */
#include "go.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rs;
static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (uint32_t)(rs % n);
}

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); exit(1); } } while (0)

static void check_board(const go_board *b)
{
    int n = b->npoints, empties = 0;
    uint64_t h = 0;
    for (int p = 0; p < n; p++) {
        int c = b->color[p];
        if (c == GO_EMPTY) {
            empties++;
            CHECK(b->empty[b->empty_pos[p]] == p);
        }
        if (c == GO_BLACK || c == GO_WHITE) {
            h ^= b->zob[c * GO_MAX_POINTS + p];
            if (b->chain[p] != p)
                continue;
            int size = 0, plib = 0, lsum = 0, lsq = 0, s = p;
            do {
                CHECK(b->color[s] == c && b->chain[s] == p);
                size++;
                int nb[4] = {s - 1, s + 1, s - b->stride, s + b->stride};
                for (int i = 0; i < 4; i++)
                    if (b->color[nb[i]] == GO_EMPTY) {
                        plib++; lsum += nb[i]; lsq += nb[i] * nb[i];
                    }
                s = b->next[s];
                CHECK(size <= n);
            } while (s != p);
            CHECK(size == b->csize[p]);
            CHECK(plib == b->plib[p] && lsum == b->lsum[p] && lsq == b->lsq[p]);
            CHECK(plib > 0);                     /* no chain without liberties survives */
        }
    }
    CHECK(empties == b->nempty);
    CHECK(h == b->pos_hash);
}

int main(int argc, char **argv)
{
    rs = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
    long iters = argc > 2 ? atol(argv[2]) : 20000;
    int caps[2 * 19 * 19 + 2], xy[2 * 19 * 19 + 2];
    uint8_t marks[19 * 19];
    float own[19 * 19];
    char chars[19 * 19];
    static go_search_result res;
    CHECK(go_game_new(1, 7.0, 0, 1) == NULL && go_game_new(20, 7.0, 0, 1) == NULL);
    go_game *g = go_game_new(2 + (int)rnd(18), 7.0, 0, 1);
    CHECK(g != NULL);
    long plays = 0;
    for (long it = 0; it < iters; it++) {
        const go_board *b = go_game_board(g);
        int size = b->size, op = (int)rnd(100);
        int color = rnd(10) ? 1 + (int)rnd(2) : (int)rnd(5) - 1;
        int x = (int)rnd(size + 4) - 2, y = (int)rnd(size + 4) - 2;
        if (op < 60) {                                  /* play: mostly legal, sometimes not */
            if (rnd(4)) {
                int k = go_game_legal_moves(g, color == 2 ? 2 : 1, xy);
                if (k) { int i = (int)rnd(k); x = xy[2 * i]; y = xy[2 * i + 1]; }
            }
            if (!rnd(20)) x = y = -1;
            int before = go_game_nmoves(g), ncap = -1;
            int ok = go_game_check(g, color, x, y);
            int err = go_game_play(g, color, x, y, caps, &ncap);
            CHECK(ok == err);
            CHECK(go_game_nmoves(g) == before + (err == GO_OK));
            CHECK(ncap >= 0 && ncap <= size * size);
            plays += err == GO_OK;
        } else if (op < 70) {
            uint64_t h = go_game_hash(g);
            int n = go_game_nmoves(g);
            if (go_game_undo(g) && n > 0) {
                int c, mx, my;
                go_game_move(g, n - 2 >= 0 ? n - 2 : 0, &c, &mx, &my);
                CHECK(go_game_nmoves(g) == n - 1);
            }
            (void)h;
        } else if (op < 75) {
            go_game_board_chars(g, chars);
            CHECK(go_game_tromp_taylor(g) > -1000);
            (void)go_game_hash(g);
        } else if (op < 78) {
            int sz = (int)rnd(24) - 2;
            int err = go_game_clear(g, sz);
            CHECK(err == ((sz <= 0 || (sz >= 2 && sz <= 19)) ? GO_OK : GO_ERR_SIZE));
        } else if (op < 80) {
            go_game_set_komi(g, (double)rnd(30) - 10.5);
            go_game_set_superko(g, (int)rnd(2));
        } else if (op < 86) {
            go_search_opts o = {1 + (long)rnd(150), 0, 1 + (int)rnd(2), (int)rnd(2), 1};
            int err = go_search_run(g, color, &o, &res);
            CHECK(err == ((color == 1 || color == 2) ? GO_OK : GO_ERR_COLOR));
            if (err == GO_OK && res.move_x >= 0) {
                CHECK(go_game_check(g, color, res.move_x, res.move_y) == GO_OK);
                CHECK(go_game_play(g, color, res.move_x, res.move_y, caps, NULL) == GO_OK);
            }
        } else if (op < 90) {
            go_game_pass_alive(g, marks);
        } else if (op < 94) {
            int nd = go_game_dead_stones(g, 1 + (int)rnd(20), marks);
            CHECK(nd >= 0 && nd <= size * size);
        } else if (op < 97) {
            go_game_ownership(g, 1 + (int)rnd(10), own);
            for (int i = 0; i < size * size; i++)
                CHECK(own[i] >= -1.0f && own[i] <= 1.0f);
        } else {
            (void)go_game_final_score(g, 1 + (int)rnd(10));
        }
        check_board(go_game_board(g));
    }
    go_game_free(g);
    printf("ok %ld plays\n", plays);
    return 0;
}
