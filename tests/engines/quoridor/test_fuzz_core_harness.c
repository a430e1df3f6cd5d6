/* Fuzz harness for the Quoridor core's C API, built by test_fuzz_core.py with AddressSanitizer
   and UBSan: random call sequences (valid and invalid) on the game, the board, the rollouts
   and inspect.c, with the board's bookkeeping (open grooves, wall masks, walls counted, Zobrist
   hash, paths) recomputed from scratch after every call, every play/undo pair checked to
   restore the board exactly, and every read-only call checked to leave it as it was.
   Usage: harness SEED ITERATIONS. Exit 0 when every check held. */
#include "quoridor.h"

#include "fuzz_harness.h"

static int has(uint64_t mask, int m, int x, int y)
{
    return x >= 0 && y >= 0 && x < m && y < m && ((mask >> (y * m + x)) & 1);
}

static int bit(qr_bb a, int i) { return (int)((a.w[i / 64] >> (i % 64)) & 1); }

/* Open steps recomputed from the wall masks alone. */
static int open_east(const qr_board *b, int x, int y)
{
    return x < b->size - 1 && !has(b->vwalls, b->size - 1, x, y) && !has(b->vwalls, b->size - 1, x, y - 1);
}

static int open_north(const qr_board *b, int x, int y)
{
    return y < b->size - 1 && !has(b->hwalls, b->size - 1, x, y) && !has(b->hwalls, b->size - 1, x - 1, y);
}

/* Plain queue BFS from player's pawn; steps to the goal row or -1. */
static int bfs(const qr_board *b, int player)
{
    int n = b->size, dist[QR_MAX_CELLS], queue[QR_MAX_CELLS], head = 0, tail = 0;
    for (int i = 0; i < n * n; i++) dist[i] = -1;
    dist[b->pawn[player]] = 0;
    queue[tail++] = b->pawn[player];
    while (head < tail) {
        int c = queue[head++], x = c % n, y = c / n;
        if (y == (player == 0 ? n - 1 : 0)) return dist[c];
        int nb[4] = {open_east(b, x, y) ? c + 1 : -1, x > 0 && open_east(b, x - 1, y) ? c - 1 : -1,
                     open_north(b, x, y) ? c + n : -1, y > 0 && open_north(b, x, y - 1) ? c - n : -1};
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0 && dist[nb[k]] < 0) { dist[nb[k]] = dist[c] + 1; queue[tail++] = nb[k]; }
    }
    return -1;
}

static void check_board(const qr_board *b, int total_walls)
{
    int n = b->size, m = n - 1;
    uint64_t h = 0, slots = m * m == 64 ? ~0ULL : (1ULL << (m * m)) - 1;
    CHECK(n >= 3 && n <= 9 && n % 2 == 1 && (b->to_move == 0 || b->to_move == 1));
    CHECK(b->pawn[0] >= 0 && b->pawn[0] < n * n && b->pawn[1] >= 0 && b->pawn[1] < n * n);
    CHECK(b->pawn[0] != b->pawn[1]);
    CHECK(((b->hwalls | b->vwalls) & ~slots) == 0 && (b->hwalls & b->vwalls) == 0);
    for (int y = 0; y < m; y++)
        for (int x = 0; x < m; x++) {
            CHECK(!(has(b->hwalls, m, x, y) && has(b->hwalls, m, x + 1, y)));
            CHECK(!(has(b->vwalls, m, x, y) && has(b->vwalls, m, x, y + 1)));
            if (has(b->hwalls, m, x, y)) h ^= qr_zobrist_wall(0, x, y);
            if (has(b->vwalls, m, x, y)) h ^= qr_zobrist_wall(1, x, y);
        }
    for (int c = 0; c < 128; c++) {
        int on = c < n * n;
        CHECK(bit(b->open_e, c) == (on && open_east(b, c % n, c / n)));
        CHECK(bit(b->open_n, c) == (on && open_north(b, c % n, c / n)));
    }
    for (int p = 0; p < 2; p++) {
        CHECK(b->walls_left[p] >= 0 && b->walls_left[p] <= QR_MAX_WALLS);
        h ^= qr_zobrist_pawn(p, b->pawn[p] % n, b->pawn[p] / n) ^ qr_zobrist_walls_left(p, b->walls_left[p]);
        CHECK(bfs(b, p) >= 0 && bfs(b, p) == qr_board_path_length(b, p));
    }
    if (b->to_move) h ^= qr_zobrist_to_move();
    CHECK(h == b->hash);
    CHECK(__builtin_popcountll(b->hwalls) + __builtin_popcountll(b->vwalls) + b->walls_left[0] +
          b->walls_left[1] == total_walls);
}

static int same_board(const qr_board *a, const qr_board *b)
{
    return a->size == b->size && a->edge_diagonal == b->edge_diagonal && a->to_move == b->to_move &&
           a->ply == b->ply && a->pawn[0] == b->pawn[0] && a->pawn[1] == b->pawn[1] &&
           a->walls_left[0] == b->walls_left[0] && a->walls_left[1] == b->walls_left[1] &&
           a->hwalls == b->hwalls && a->vwalls == b->vwalls && a->hash == b->hash &&
           memcmp(&a->open_e, &b->open_e, sizeof a->open_e) == 0 &&
           memcmp(&a->open_n, &b->open_n, sizeof a->open_n) == 0 && a->geom == b->geom;
}

typedef struct {
    qr_game *g;
    int total;             /* walls on the board plus walls left, constant between setups */
    long plays;
} fuzz;

static int random_code(const qr_board *b)
{
    int moves[QR_MAX_MOVES], k = qr_board_legal_moves(b, moves);
    if (k && rnd(4))
        return moves[rnd(k)];
    return (int)rnd(QR_MOVE_END + 10) - 5;
}

static void op_play(fuzz *f)
{
    const qr_board *b = qr_game_board(f->g);
    int code = random_code(b), before = qr_game_nmoves(f->g), ok = qr_board_check(b, code);
    CHECK(ok == qr_board_check_full(b, code));           /* the shortcut changes nothing */
    int err = qr_game_play(f->g, code);
    CHECK(ok == err && qr_game_nmoves(f->g) == before + (err == QR_OK));
    if (err == QR_OK) {
        CHECK(qr_game_move(f->g, before) == code);
        f->plays++;
    }
}

/* Every listed move is legal, every other code is not, and the lists do not change b. */
static void op_lists(fuzz *f)
{
    const qr_board *b = qr_game_board(f->g);
    qr_board before = *b;
    int moves[QR_MAX_MOVES], walls[2 * QR_MAX_SLOTS], pawn[QR_MAX_PAWN_MOVES], listed[QR_MOVE_END] = {0};
    int k = qr_board_legal_moves(b, moves), nw = qr_board_legal_walls(b, walls);
    int np = qr_board_pawn_moves(b, pawn);
    CHECK(k == nw + np && np <= QR_MAX_PAWN_MOVES);
    for (int i = 0; i < k; i++) listed[moves[i]] = 1;
    for (int c = 0; c < QR_MOVE_END; c++) {
        CHECK((qr_board_check(b, c) == QR_OK) == listed[c]);
        CHECK(qr_board_check(b, c) == qr_board_check_full(b, c));
    }
    CHECK(same_board(b, &before));
}

/* Play and undo on a copy restore every field. */
static void op_pair(fuzz *f)
{
    qr_board b = *qr_game_board(f->g), before = b;
    qr_undo u;
    int moves[QR_MAX_MOVES], k = qr_board_legal_moves(&b, moves);
    if (!k) return;
    qr_board_play(&b, moves[rnd(k)], &u);
    check_board(&b, f->total);
    CHECK(b.hash != before.hash);
    qr_board_undo(&b, &u);
    CHECK(same_board(&b, &before));
}

static void op_rollout(fuzz *f)
{
    const qr_board *b = qr_game_board(f->g);
    qr_board copy = *b, before = *b;
    qr_rng r;
    qr_rng_seed(&r, rnd(1000));
    int mv = qr_rollout_move(b, &r);
    CHECK(mv == -1 ? qr_board_winner(b) >= 0 || qr_board_legal_moves(b, (int[QR_MAX_MOVES]){0}) == 0
                   : qr_board_check(b, mv) == QR_OK);
    int w = qr_rollout(&copy, &r, 1 + (int)rnd(300));
    CHECK(w >= -1 && w <= 1 && w == qr_board_winner(&copy));
    check_board(&copy, f->total);
    CHECK(same_board(b, &before));
}

/* qr_board_shortest_path: as many steps as the path length, each an open step (the BFS
   above's geometry) that comes one closer to the goal row by the distance map. */
static void check_shortest_path(const qr_board *b, int p, const int *dist)
{
    int cells[QR_MAX_CELLS], n = b->size, steps = qr_board_shortest_path(b, p, cells);
    CHECK(steps == qr_board_path_length(b, p));
    for (int i = 0, c = b->pawn[p]; i < steps; c = cells[i++]) {
        int d = cells[i], x = c % n, y = c / n;
        CHECK(d >= 0 && d < n * n && dist[d] == dist[c] - 1);
        CHECK((d == c + 1 && open_east(b, x, y)) || (d == c - 1 && x > 0 && open_east(b, x - 1, y)) ||
              (d == c + n && open_north(b, x, y)) || (d == c - n && y > 0 && open_north(b, x, y - 1)));
    }
}

/* The leaf value's facts (value.c) on any position: the game's paths and walls, gains within
   0..10, a chance strictly between 0 and 1; a finished game has none. */
static void check_leaf_value(const qr_board *b)
{
    int facts[QR_LEAF_FACTS];
    double feats[QR_VALUE_FEATURES];
    if (qr_board_winner(b) >= 0) {
        CHECK(qr_leaf_facts(b, facts) == QR_ERR_GAME_OVER);
        return;
    }
    CHECK(qr_leaf_facts(b, facts) == QR_OK);
    CHECK(facts[QR_FACT_PATH_ME] == qr_board_path_length(b, b->to_move));
    CHECK(facts[QR_FACT_PATH_OPP] == qr_board_path_length(b, !b->to_move));
    CHECK(facts[QR_FACT_WALLS_ME] == b->walls_left[b->to_move]);
    CHECK(facts[QR_FACT_WALLS_OPP] == b->walls_left[!b->to_move]);
    for (int i = QR_FACT_GAIN_ME; i <= QR_FACT_GAIN_OPP; i++)
        CHECK(facts[i] >= 0 && facts[i] <= 10 && (facts[i - 2] > 0 || facts[i] == 0));
    qr_value_features(facts, feats);
    CHECK(feats[QR_FEATURE_BIAS] == 1.0);
    double v = qr_value_chance(facts);
    CHECK(v > 0.0 && v < 1.0);
}

/* Walls of the side to move as the searches list them: legal, none twice; the path lengths
   each really leaves into paths[i] (player 0's, player 1's). */
static void check_wall_list(const qr_board *b, const int *moves, int n, int (*paths)[2])
{
    CHECK(n >= 0 && n <= 2 * QR_MAX_SLOTS && (n == 0 || b->walls_left[b->to_move] > 0));
    for (int i = 0; i < n; i++) {
        CHECK(moves[i] >= QR_WALL_H && qr_board_check_full(b, moves[i]) == QR_OK);
        for (int j = 0; j < i; j++)
            CHECK(moves[j] != moves[i]);
        qr_board after = *b;
        qr_undo u;
        qr_board_play(&after, moves[i], &u);
        for (int p = 0; p < 2; p++)
            paths[i][p] = qr_board_path_length(&after, p);
    }
}

/* The blocks do not lengthen the own path. */
static void check_blocks(const qr_board *b)
{
    int moves[2 * QR_MAX_SLOTS], paths[2 * QR_MAX_SLOTS][2], n = qr_board_blocks(b, moves);
    check_wall_list(b, moves, n, paths);
    for (int i = 0; i < n; i++)
        CHECK(paths[i][b->to_move] == qr_board_path_length(b, b->to_move));
}

/* The searches' walls come with the path lengths they really leave, the opponent's longer. */
static void check_impact_walls(const qr_board *b)
{
    int moves[2 * QR_MAX_SLOTS], lengths[4 * QR_MAX_SLOTS], paths[2 * QR_MAX_SLOTS][2];
    int n = qr_board_impact_walls(b, moves, lengths), opp = !b->to_move;
    check_wall_list(b, moves, n, paths);
    for (int i = 0; i < n; i++) {
        CHECK(lengths[2 * i] == paths[i][0] && lengths[2 * i + 1] == paths[i][1]);
        CHECK(paths[i][opp] > qr_board_path_length(b, opp));
    }
}

static void op_inspect(fuzz *f)
{
    const qr_board *b = qr_game_board(f->g);
    qr_board before = *b;
    int dist[QR_MAX_CELLS], code = random_code(b), v = code >= QR_WALL_V, n = b->size;
    int slot = code - (v ? QR_WALL_V : QR_WALL_H), valid = code >= QR_WALL_H && code < QR_MOVE_END &&
               slot < (n - 1) * (n - 1);
    int c = qr_board_wall_contacts(b, code);
    CHECK(valid ? c >= 0 && c <= 3 : c == -1);
    for (int p = 0; p < 2; p++) {
        qr_board_distances(b, p, dist);
        CHECK(dist[b->pawn[p]] == qr_board_path_length(b, p));
        check_shortest_path(b, p, dist);
    }
    check_leaf_value(b);
    check_blocks(b);
    check_impact_walls(b);
    CHECK(same_board(b, &before));
}

/* A search with a tiny budget answers a legal move (or none when the game is over), a
   playable PV whose first move is that move, and leaves the game's board as it was. */
static void op_search(fuzz *f, qr_search *s)
{
    const qr_board *b = qr_game_board(f->g);
    qr_board before = *b;
    qr_search_result r;
    uint64_t hist[40];
    int nh = qr_game_recent_hashes(f->g, hist, (int)rnd(40));
    CHECK(nh >= 0 && nh <= qr_game_nmoves(f->g));
    for (int i = 0; i < nh; i++)
        CHECK(hist[i] != b->hash || i % 2 == 1);    /* the side to move differs at even i */
    qr_search_opts o = {rnd(4) ? 0.0 : 0.001, 1 + (long)rnd(300), (int)rnd(4), hist, nh};
    int err = qr_search_run(s, b, &o, &r);
    CHECK(same_board(b, &before));
    CHECK(r.path[0] == qr_board_path_length(b, 0) && r.path[1] == qr_board_path_length(b, 1));
    if (qr_board_winner(b) >= 0) {
        CHECK(err == QR_ERR_GAME_OVER && r.move == -1);
        return;
    }
    CHECK(err == QR_OK && r.depth >= 0 && r.pv_len <= QR_SEARCH_MAX_DEPTH);
    CHECK(r.ncandidates >= 0 && r.ncandidates <= QR_SEARCH_MAX_CANDIDATES);
    if (r.move >= 0)
        CHECK(qr_board_check(b, r.move) == QR_OK && r.pv_len >= 1 && r.pv[0] == r.move);
    for (int i = 0; i < r.ncandidates; i++)
        CHECK(qr_board_check(b, r.candidates[i]) == QR_OK);
    qr_board line = *b;
    qr_undo u;
    for (int i = 0; i < r.pv_len && qr_board_winner(&line) < 0; i++) {
        CHECK(qr_board_check(&line, r.pv[i]) == QR_OK);      /* the whole PV is playable */
        qr_board_play(&line, r.pv[i], &u);
    }
}

/* A tree search (either style, tiny budgets, sometimes a tiny tree that fills) answers a
   legal move, legal candidates with visits, a playable PV, and leaves the board as it was; the
   same options give the same answer (without reuse or threads; with reuse, the tree of the last
   run, on whatever board it was, is searched for this board), and the tree's bookkeeping holds
   (threads included: up to three share the tree). */
static void op_mcts(fuzz *f, qr_mcts *t)
{
    const qr_board *b = qr_game_board(f->g);
    qr_board before = *b;
    qr_mcts_result r, again;
    uint64_t hist[40];
    int nh = qr_game_recent_hashes(f->g, hist, (int)rnd(40));
    qr_mcts_opts o = {rnd(4) ? 0.0 : 0.001, 1 + (long)rnd(400), (int)rnd(2), (int)rnd(2),
                      rnd(2) ? 0.0 : 0.05 * (double)rnd(40), rs, hist, nh, (int)rnd(2),
                      (int)rnd(5) - 1};
    int err = qr_mcts_run(t, b, &o, &r);
    CHECK(same_board(b, &before));
    CHECK(qr_mcts_check_tree(t) >= 1);
    CHECK(r.path[0] == qr_board_path_length(b, 0) && r.path[1] == qr_board_path_length(b, 1));
    if (qr_board_winner(b) >= 0) {
        CHECK(err == QR_ERR_GAME_OVER && r.move == -1);
        return;
    }
    CHECK(err == QR_OK && r.playouts >= 0 && r.nodes >= 1 && r.winrate >= 0.0 && r.winrate <= 1.0);
    if (o.seconds == 0.0 && o.style == QR_MCTS_OWN)     /* threads too: the budget exactly */
        CHECK(r.playouts == o.playouts && r.nodes == qr_mcts_check_tree(t));
    CHECK(r.ncandidates >= 0 && r.ncandidates <= QR_SEARCH_MAX_CANDIDATES);
    CHECK(r.pv_len >= 0 && r.pv_len <= QR_SEARCH_MAX_DEPTH);
    if (r.move >= 0)
        CHECK(qr_board_check(b, r.move) == QR_OK);
    for (int i = 0; i < r.ncandidates; i++) {
        CHECK(qr_board_check(b, r.candidates[i]) == QR_OK && r.candidate_visits[i] >= 1);
        CHECK(i == 0 || r.candidate_visits[i] <= r.candidate_visits[i - 1]);
    }
    qr_board line = *b;
    qr_undo u;
    for (int i = 0; i < r.pv_len && qr_board_winner(&line) < 0; i++) {
        CHECK(qr_board_check(&line, r.pv[i]) == QR_OK);
        qr_board_play(&line, r.pv[i], &u);
    }
    if (o.seconds == 0.0 && !o.reuse && o.threads <= 1) {   /* reuse, threads: no repeat */
        qr_mcts_run(t, b, &o, &again);
        CHECK(again.move == r.move && again.playouts == r.playouts && again.nodes == r.nodes);
    }
}

static void op_setup(fuzz *f, int op)
{
    const qr_board *b = qr_game_board(f->g);
    if (op == 0) {
        int size = (int)rnd(13) - 1, walls = (int)rnd(25) - 2;
        int ok = size <= 0 || (size >= 3 && size <= 9 && size % 2 == 1 && walls <= QR_MAX_WALLS);
        int err = qr_game_clear(f->g, size, walls, (int)rnd(2));
        CHECK((err == QR_OK) == ok && (ok || err == QR_ERR_SIZE));
    } else if (op == 1) {
        int n = qr_game_nmoves(f->g), undone = qr_game_undo(f->g);
        CHECK(undone == (n > 0) && qr_game_nmoves(f->g) == n - undone);
    } else {
        int n = b->size, cells = n * n;
        uint64_t h = rnd(3) ? b->hwalls : rs, v = rnd(3) ? b->vwalls : rs >> 7;
        int err = qr_game_set_position(f->g, (int)rnd(cells + 2) - 1, (int)rnd(cells + 2) - 1, h, v,
                                       (int)rnd(23) - 1, (int)rnd(23) - 1, (int)rnd(3));
        CHECK(err >= QR_OK && err <= QR_ERR_BLOCKS);
        if (err == QR_OK) CHECK(qr_game_nmoves(f->g) == 0);
    }
    b = qr_game_board(f->g);
    f->total = __builtin_popcountll(b->hwalls) + __builtin_popcountll(b->vwalls) + b->walls_left[0] + b->walls_left[1];
    CHECK(qr_game_move(f->g, -1) == -1 && qr_game_move(f->g, qr_game_nmoves(f->g)) == -1);
}

int main(int argc, char **argv)
{
    rs = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
    long iters = argc > 2 ? atol(argv[2]) : 20000;
    CHECK(qr_game_new(4, -1, 1) == NULL && qr_game_new(11, -1, 1) == NULL && qr_game_new(9, 21, 1) == NULL);
    CHECK(qr_bench_rollouts(9, 20, 1) >= 0 && qr_bench_rollouts(6, 1, 1) == -1);
    CHECK(qr_bench_search(5, 200, NULL) >= 1 && qr_bench_search(6, 10, NULL) == -1);
    qr_search *s = qr_search_new((int)rnd(3) - 1);
    CHECK(s != NULL && qr_search_memory(s) > 0);
    CHECK(qr_bench_mcts(5, 200, QR_MCTS_OWN, NULL) >= 1 && qr_bench_mcts(5, 50, QR_MCTS_REFERENCE, NULL) >= 1);
    CHECK(qr_bench_mcts(6, 10, QR_MCTS_OWN, NULL) == -1);
    qr_mcts *t = qr_mcts_new((int)rnd(3) - 1);       /* the smallest tree, or 1 MB */
    CHECK(t != NULL && qr_mcts_memory(t) > 0);
    fuzz f = {qr_game_new(3 + 2 * (int)rnd(4), -1, 1), 0, 0};
    CHECK(f.g != NULL);
    f.total = 2 * qr_game_board(f.g)->walls_left[0];
    for (long it = 0; it < iters; it++) {
        int op = (int)rnd(100);
        if (op < 60) op_play(&f);
        else if (op < 72) op_setup(&f, 1);
        else if (op < 78) op_lists(&f);
        else if (op < 86) op_pair(&f);
        else if (op < 92) op_rollout(&f);
        else if (op < 95) op_inspect(&f);
        else if (op < 96) op_search(&f, s);
        else if (op < 98) op_mcts(&f, t);
        else op_setup(&f, rnd(3) ? 0 : 2);
        check_board(qr_game_board(f.g), f.total);
        CHECK(qr_game_board(f.g)->ply == qr_game_nmoves(f.g));
    }
    qr_game_free(f.g);
    qr_search_free(s);
    qr_mcts_free(t);
    printf("ok %ld plays\n", f.plays);
    return 0;
}
