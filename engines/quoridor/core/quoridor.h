/* quoridor.h - the Quoridor engine's C API: board, walls, paths, game record, rollouts.
 *
 * Plain C, no I/O, no Python. A board is size x size squares, size odd, 3..9 (5, 7 and 9 are
 * the ones played). Squares outside this file are (x, y): x the column from a (0), y the row
 * from 1 (0). Inside, a square is the cell index y * size + x, bit (y * size + x) of a
 * qr_bb. Player 0 starts in the middle of row 0 (e1 on 9x9) and wins on row size - 1; player
 * 1 starts in the middle of row size - 1 and wins on row 0. Player 0 moves first.
 *
 * Walls lie on the grooves. A wall slot (x, y), 0 <= x, y < size - 1, is the wall that
 * touches squares (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1): horizontal, it lies between
 * rows y and y + 1 along columns x and x + 1; vertical, between columns x and x + 1 beside rows
 * y and y + 1. Slot index s = y * (size - 1) + x, bit s of a uint64_t slot mask.
 *
 * A move is an int: a pawn move is its destination cell (0 .. size * size - 1), a wall is
 * QR_WALL_H + s or QR_WALL_V + s.
 *
 * Files: see engines/HACKING.md. Dependencies run one way: rollout.c -> game.c -> board.c ->
 * path.c, and search.c -> board.c, path.c; inspect.c (helpers for tests and tools) reads the others.
 *
 * Everything between the two "binding" markers is also the cffi declaration of the Python
 * module engines.quoridor._core: build_quoridor.py hands that text to cdef() verbatim, except
 * that each #define is replaced by its value (engines/go/build_go.py's cdef_from_header).
 */
#ifndef QUORIDOR_H
#define QUORIDOR_H

#include <stdint.h>

/* ==== binding: begin (read by engines/quoridor/build_quoridor.py) ==== */

#define QR_MIN_SIZE 3
#define QR_MAX_SIZE 9
#define QR_MAX_CELLS (QR_MAX_SIZE * QR_MAX_SIZE)
#define QR_MAX_SLOTS ((QR_MAX_SIZE - 1) * (QR_MAX_SIZE - 1))
#define QR_MAX_WALLS 20
#define QR_WALL_H 128
#define QR_WALL_V (QR_WALL_H + QR_MAX_SLOTS)
#define QR_MOVE_END (QR_WALL_V + QR_MAX_SLOTS)
#define QR_MAX_PAWN_MOVES 5
#define QR_MAX_MOVES (QR_MAX_PAWN_MOVES + 2 * QR_MAX_SLOTS)

/* Why a move is refused (qr_board_check / qr_game_play), in the order they are tested. */
enum {
    QR_OK = 0,
    QR_ERR_GAME_OVER = 1,   /* a pawn already stands on its goal row */
    QR_ERR_OFF_BOARD = 2,   /* not a move code of this board size */
    QR_ERR_PAWN = 3,        /* not a square the side to move's pawn can reach this turn */
    QR_ERR_NO_WALLS = 4,    /* a wall, but the side to move has none left */
    QR_ERR_OVERLAP = 5,     /* shares a groove segment with a parallel wall */
    QR_ERR_CROSS = 6,       /* crosses a perpendicular wall at its middle */
    QR_ERR_BLOCKS = 7,      /* would leave a pawn with no path to its goal row */
    QR_ERR_SIZE = 8,        /* board size not odd in 3..9, or wall count not in 0..20 */
    QR_ERR_NOMEM = 9,
};

/* A set of cells: bit i of w[i / 64]. */
typedef struct { uint64_t w[2]; } qr_bb;

/* ---- Board: one position, a plain struct (copy it by assignment) ------------------------ */

typedef struct qr_board {
    int size;              /* squares per side */
    int edge_diagonal;     /* variant: the board edge behind the opponent allows diagonals */
    int to_move;           /* 0 or 1 */
    int ply;               /* moves played since the start */
    int pawn[2];           /* cell of each pawn */
    int walls_left[2];
    uint64_t hwalls, vwalls;  /* slot masks of the walls on the board */
    qr_bb open_e, open_n;  /* cells whose step east (x + 1) / north (y + 1) crosses no wall
                              and stays on the board */
    uint64_t hash;         /* Zobrist: pawns, walls, walls left, side to move */
    const void *geom;      /* this size's fixed tables (internal.h's qr_geom) */
} qr_board;

/* What qr_board_undo needs to take a move back. */
typedef struct { int move; int from; } qr_undo;

/* Start position. walls < 0 gives qr_default_walls(size). Returns QR_OK or QR_ERR_SIZE. */
int qr_board_init(qr_board *b, int size, int walls, int edge_diagonal);
/* Walls each player gets by default: round(10 * size^2 / 81), so 3 on 5x5, 6 on 7x7, 10 on
   9x9. Returns -1 for a size the core does not support. */
int qr_default_walls(int size);
/* Move codes: pawn to (x, y), wall at slot (x, y) (horizontal when vertical == 0). No check. */
int qr_pawn_move(const qr_board *b, int x, int y);
int qr_wall_move(const qr_board *b, int vertical, int x, int y);
/* Set up a position (keeps size, variant flag): pawn cells, wall slot masks, walls left,
   side to move; ply 0. Refused with the board unchanged: QR_ERR_OFF_BOARD (a pawn off the
   board or on the other's cell, a slot off the board, a count or side out of range),
   QR_ERR_OVERLAP / QR_ERR_CROSS (two walls of the masks), QR_ERR_BLOCKS (a pawn without path). */
int qr_board_set_position(qr_board *b, int pawn0, int pawn1, uint64_t hwalls, uint64_t vwalls,
                          int left0, int left1, int to_move);
/* Legality of move for the side to move: QR_OK or the first QR_ERR_* that applies. */
int qr_board_check(const qr_board *b, int move);
/* Play a move qr_board_check accepted; u receives what undo needs. */
void qr_board_play(qr_board *b, int move, qr_undo *u);
/* Take back the move u was filled for; must be the last one played on b. */
void qr_board_undo(qr_board *b, const qr_undo *u);
/* -1 while the game goes on, else the player whose pawn is on its goal row. */
int qr_board_winner(const qr_board *b);
/* Destinations of the side to move's pawn (jumps, diagonals); cells sorted; <= 5; none once
   the game is over. */
int qr_board_pawn_moves(const qr_board *b, int *cells);
/* Every legal wall move of the side to move, increasing codes; room for 2 * QR_MAX_SLOTS;
   none once the game is over. */
int qr_board_legal_walls(const qr_board *b, int *moves);
/* Every legal move (pawn moves first); room for QR_MAX_MOVES. */
int qr_board_legal_moves(const qr_board *b, int *moves);
/* Steps on the shortest path of player's pawn to its goal row (pawns ignored), -1 if none. */
int qr_board_path_length(const qr_board *b, int player);
/* One shortest path of player's pawn (pawns ignored) into cells (room for QR_MAX_CELLS): the
   squares after the pawn's, in order, to the goal row. The first one a breadth-first search
   finds, stepping east, west, north, south (rules.py's Game.shortest_path). Returns the steps
   (qr_board_path_length), -1 if none. */
int qr_board_shortest_path(const qr_board *b, int player, int *cells);
/* Zobrist keys, from one splitmix64 stream shared by every size (see rules.py): the pawn of
   player at (x, y), a wall at slot (x, y), player 1 to move, player holding count walls. */
uint64_t qr_zobrist_pawn(int player, int x, int y);
uint64_t qr_zobrist_wall(int vertical, int x, int y);
uint64_t qr_zobrist_to_move(void);
uint64_t qr_zobrist_walls_left(int player, int count);

/* ---- Game record: a board and its history ------------------------------------------------ */

typedef struct qr_game qr_game;

/* New game; NULL on a bad size or wall count, or no memory. */
qr_game *qr_game_new(int size, int walls, int edge_diagonal);
void qr_game_free(qr_game *g);
/* The current position; valid for the game's lifetime, changed only by play/undo/clear. */
const qr_board *qr_game_board(const qr_game *g);
/* Back to the start position with the variant flag given; a new size and wall count when
   size > 0 (walls < 0: default), else the game's own. QR_OK or QR_ERR_SIZE (unchanged). */
int qr_game_clear(qr_game *g, int size, int walls, int edge_diagonal);
/* Play move for the side to move: QR_OK or why it was refused (the game is then unchanged). */
int qr_game_play(qr_game *g, int move);
/* qr_board_set_position on the game's board; the history is cleared when it succeeds. */
int qr_game_set_position(qr_game *g, int pawn0, int pawn1, uint64_t hwalls, uint64_t vwalls,
                         int left0, int left1, int to_move);
/* Take back the last move; 0 when there is none. */
int qr_game_undo(qr_game *g);
int qr_game_nmoves(const qr_game *g);
/* Move i (0 = the first), -1 when out of range. */
int qr_game_move(const qr_game *g, int i);
/* Hashes of the positions before the current one that could come again (back to the last
   wall: a wall never goes away), newest first, at most max; returns how many. */
int qr_game_recent_hashes(const qr_game *g, uint64_t *out, int max);

/* ---- Rollouts: shortest-path-guided random games ----------------------------------------- */

typedef struct { uint64_t s; } qr_rng;
void qr_rng_seed(qr_rng *r, uint64_t seed);
/* Uniform integer in [0, n), n > 0. */
uint32_t qr_rng_below(qr_rng *r, uint32_t n);
/* Play b to the end: with probability 0.7 (or always, with no walls left) the side to move
   steps its pawn onto a square of least path length, else it places a random legal "probable"
   wall (one touching a wall, or touching a square next to a pawn; a pawn step when none is
   found in a few draws). Returns the winner, or -1 when max_plies ran out. b is changed. */
int qr_rollout(qr_board *b, qr_rng *r, int max_plies);
/* The move qr_rollout would play next on b (b is not changed); -1 if the game is over. */
int qr_rollout_move(const qr_board *b, qr_rng *r);
/* Rollouts from the start position of size (default walls); returns the first player's wins.
   The benchmark of the rollout speed. */
long qr_bench_rollouts(int size, long rollouts, uint64_t seed);

/* ---- Search (search.c): iterative-deepening alpha-beta ---------------------------------- */

/* Plies of one search (also the longest PV); root moves reported; a win in p plies scores
   QR_SCORE_WIN - p; the node budget when the options give no limit at all. */
#define QR_SEARCH_MAX_DEPTH 48
#define QR_SEARCH_MAX_CANDIDATES 8
#define QR_SCORE_WIN 30000
#define QR_SEARCH_DEFAULT_NODES 200000
#define QR_SEARCH_HISTORY 32

typedef struct qr_search qr_search;

/* Budget of one run; the first limit reached ends it (<= 0: no such limit). Depth 1 always
   completes, so a run returns a move whatever the budget. */
typedef struct {
    double seconds;        /* wall-clock seconds; ignored where the platform has no clock */
    long nodes;            /* nodes visited */
    int depth;             /* deepest iteration, at most QR_SEARCH_MAX_DEPTH */
    const uint64_t *history;  /* hashes of earlier positions that may come again (newest */
    int nhistory;             /* first, qr_game_recent_hashes); at most QR_SEARCH_HISTORY used */
} qr_search_opts;

/* What a run found, from the side to move's point of view. Scores are in hundredths of a
   step; |score| > QR_SCORE_WIN - QR_SEARCH_MAX_DEPTH is a forced result. */
typedef struct {
    int move;              /* best move, -1 when the game is over or no move exists */
    int score;
    int depth;             /* the last completed iteration */
    long nodes;
    double seconds;        /* 0 where there is no clock */
    int pv_len;
    int pv[QR_SEARCH_MAX_DEPTH];
    int ncandidates;       /* root moves, best first: the score of the best is exact, the */
    int candidates[QR_SEARCH_MAX_CANDIDATES];   /* others are upper bounds (PVS null windows) */
    int candidate_scores[QR_SEARCH_MAX_CANDIDATES];
    int path[2];           /* each player's shortest path on the position searched */
} qr_search_result;

/* A search with a transposition table of about tt_megabytes (at least 16 KB, at most 4 GB,
   a power of two entries). NULL without memory. */
qr_search *qr_search_new(int tt_megabytes);
void qr_search_free(qr_search *s);
/* Bytes the search holds (table and move lists); fixed at qr_search_new. */
long qr_search_memory(const qr_search *s);
/* Search b (only read: the search plays on its own copy). A position met again, on the
   search's line or in opts->history, scores as a draw (0). Returns QR_OK, or QR_ERR_GAME_OVER
   (then r->move is -1). A qr_search must not run in two threads at once; separate ones share
   nothing. The table is kept between runs; a new qr_search gives reproducible results. */
int qr_search_run(qr_search *s, const qr_board *b, const qr_search_opts *opts,
                  qr_search_result *r);
/* Node-speed benchmark: a search of the start position of size with budget nodes; returns
   the nodes visited (and r, when not NULL). */
long qr_bench_search(int size, long nodes, qr_search_result *r);

/* ---- Monte Carlo tree search (mcts.c) --------------------------------------------------- */

/* Styles: our PUCT with path-impact priors and a path-value leaf, or the public quoridor-ai
   method (UCT c = 0.2, probable walls, 0.7 shortest-step rollouts); see mcts.c. Leaves of the
   own style: the shortest-path value, or one guided rollout. */
enum { QR_MCTS_OWN = 0, QR_MCTS_REFERENCE = 1 };
enum { QR_MCTS_LEAF_VALUE = 0, QR_MCTS_LEAF_ROLLOUT = 1 };
#define QR_MCTS_DEFAULT_PLAYOUTS 10000

typedef struct qr_mcts qr_mcts;

/* Budget and method of one run; the first limit reached ends it (<= 0: none; with neither,
   QR_MCTS_DEFAULT_PLAYOUTS). exploration <= 0: the style's default (own 1.5, reference 0.2).
   A run with the same options on the same board gives the same result, unless reuse is set:
   then, in the own style, a board that is the previous run's root or one or two plies after it
   starts from that part of the previous tree (its visits kept: a game's searches build on each
   other, as a player's thinking does). */
typedef struct {
    double seconds;
    long playouts;         /* iterations (each one leaf value or one rollout) */
    int style;             /* QR_MCTS_OWN or QR_MCTS_REFERENCE */
    int leaf;              /* own style only: QR_MCTS_LEAF_VALUE or QR_MCTS_LEAF_ROLLOUT */
    double exploration;
    uint64_t seed;
    const uint64_t *history;  /* as qr_search_opts': earlier positions that may come again; */
    int nhistory;             /* a line back to one of them, or to its own, is a draw (0.5) */
    int reuse;                /* own style: keep the previous run's subtree (above) */
    int threads;              /* own style: threads sharing the tree (<= 1: one; at most 64).
                                 With more than one a run's result varies from run to run */
} qr_mcts_opts;

/* What a run found, from the side to move's point of view. */
typedef struct {
    int move;              /* the most visited root move; -1 when the game is over */
    double winrate;        /* its win rate for the side to move */
    long playouts;
    long nodes;            /* tree nodes used */
    double seconds;
    int tree_full;         /* an expansion found no room (the tree hit its memory bound) */
    int pv_len;            /* most visited line */
    int pv[QR_SEARCH_MAX_DEPTH];
    int ncandidates;       /* root moves, most visited first */
    int candidates[QR_SEARCH_MAX_CANDIDATES];
    long candidate_visits[QR_SEARCH_MAX_CANDIDATES];
    double candidate_winrates[QR_SEARCH_MAX_CANDIDATES];
    int path[2];           /* each player's shortest path on the position searched */
    int threads;           /* threads that searched (those that could start; 1 in the browser) */
    long child_visits;     /* visits of all the root's moves (a kept tree's too): a new root's
                              search gives them every playout but the one that expanded it */
} qr_mcts_result;

/* A search whose tree holds about megabytes (at most 4096; 16-byte nodes; < 1: the smallest
   tree, 1024 nodes). NULL without memory. */
qr_mcts *qr_mcts_new(int megabytes);
void qr_mcts_free(qr_mcts *t);
/* Bytes the search holds (fixed at qr_mcts_new). */
long qr_mcts_memory(const qr_mcts *t);
/* Search b (only read). QR_OK, or QR_ERR_GAME_OVER (r->move -1). Not for two callers at once
   (opts->threads is how a run uses several); the tree is rebuilt on every run, or kept in part
   with opts->reuse. */
int qr_mcts_run(qr_mcts *t, const qr_board *b, const qr_mcts_opts *opts, qr_mcts_result *r);
/* Playout-speed benchmark: a run of style from the start position of size (as if each pawn
   had moved once) with budget playouts; returns the playouts done (and r, when not NULL). */
long qr_bench_mcts(int size, long playouts, int style, qr_mcts_result *r);
/* The tree's bookkeeping after a run (for tests and the fuzz harness): every node reached from
   the root once, children inside the used part of the array, no expansion left half done, a
   node's visits at least its children's, wins within visits. The node count, or -1. */
long qr_mcts_check_tree(const qr_mcts *t);

/* ---- Inspection (inspect.c): for tests and tools, compiled by the fuzz harness too ------- */

/* How many of the wall's three contact points (two ends, middle) touch the board edge or
   another wall on b, for a wall that neither overlaps nor crosses one (else unspecified). */
int qr_board_wall_contacts(const qr_board *b, int move);
/* qr_board_check without the shortcut: the path check is run for every wall. */
int qr_board_check_full(const qr_board *b, int move);
/* Path length of player from every cell to its goal row into dist[size * size] (-1: none). */
void qr_board_distances(const qr_board *b, int player, int *dist);
/* The side to move's blocks, best first, into moves[2 * QR_MAX_SLOTS]: the walls that leave
   the opponent's best wall against it (among the opponent's 3 best) gaining less, without
   lengthening its own path; the tree adds them near its root. The count. */
int qr_board_blocks(const qr_board *b, int *moves);
/* The side to move's walls that lengthen the opponent's shortest path, as the searches
   generate them (best gain first), into moves[2 * QR_MAX_SLOTS], and both players' path
   lengths after each into lengths[2 * i + player]. The count. */
int qr_board_impact_walls(const qr_board *b, int *moves, int *lengths);

/* ---- Leaf value (value.c): the tree search's evaluation, learned from self-play -------- */

/* Facts of a position from the side to move's view: both shortest paths, both walls in hand,
   and the gain of each side's best wall now (the other's path lengthened less its own; 0 or
   more, at most 10). */
enum { QR_FACT_PATH_ME, QR_FACT_PATH_OPP, QR_FACT_WALLS_ME, QR_FACT_WALLS_OPP, QR_FACT_GAIN_ME,
       QR_FACT_GAIN_OPP, QR_LEAF_FACTS };
/* The features the weights multiply (value.c says how each is made from the facts). */
enum { QR_FEATURE_BIAS, QR_FEATURE_PATHS, QR_FEATURE_WALLS, QR_FEATURE_GAIN, QR_FEATURE_THREAT,
       QR_FEATURE_NO_WALLS_ME, QR_FEATURE_NO_WALLS_OPP, QR_FEATURE_PATHS_NEAR_END,
       QR_FEATURE_FIRST_WALLS, QR_VALUE_FEATURES };

/* The facts of b into facts[QR_LEAF_FACTS]: QR_OK, or QR_ERR_GAME_OVER when the game is over. */
int qr_leaf_facts(const qr_board *b, int *facts);
/* The features of facts into f[QR_VALUE_FEATURES]. */
void qr_value_features(const int *facts, double *f);
/* The side to move's winning chance by the compiled weights (a race's 0.97 / 0.03 when
   neither side has a wall). */
double qr_value_chance(const int *facts);

/* ==== binding: end ==== */

#endif
