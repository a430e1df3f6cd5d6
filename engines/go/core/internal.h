/* internal.h - helpers shared between the core's files (not part of the public API, not seen
   by the binding; inspect.c may use them to expose a view for tests). */
#ifndef GO_INTERNAL_H
#define GO_INTERNAL_H

#include "go.h"
#include "core_platform.h" /* threads, once, clock: the native/wasm seam */

/* The next number of a splitmix64 stream: the fixed keys of the Zobrist tables and of the
   large patterns' hashes. */
static inline uint64_t go_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A chain (by its head) in atari: all its pseudo-liberties are one point, which holds exactly
   when (sum of points)^2 = count * (sum of squares). */
static inline int go_chain_in_atari(const go_board *b, int head)
{
    int64_t n = b->plib[head], s = b->lsum[head];
    return n > 0 && n * (int64_t)b->lsq[head] == s * s;
}

/* Tactical move features (go_move_features), read by the learned priors' classes. */
enum {
    GO_F_CAPTURE = 1,       /* captures a single stone */
    GO_F_CAPTURE_BIG = 2,   /* captures a chain of two or more stones */
    GO_F_ESCAPE = 4,        /* saves an own chain from atari */
    GO_F_SELF_ATARI = 16,   /* leaves the new chain with one liberty */
    GO_F_OWN_EYE = 32,      /* fills an own eye */
    GO_F_LADDER = 256,      /* runs from atari into a ladder that captures */
};

/* The colours (GO_BLACK | GO_WHITE bits) that the empty region around an empty point touches;
   0 for a stone (board.c). */
int go_board_region_touch(const go_board *b, int point);

/* Bit flags GO_F_* of color playing point (assumed legal). */
int go_move_features(const go_board *b, int color, int point);
/* 1 when color extending at point from atari is still captured in a ladder. */
int go_ladder_escape_fails(const go_board *b, int color, int point);
/* 1 when the chain at head (one or two liberties) dies in a ladder if its attacker moves first. */
int go_chain_laddered(const go_board *b, int head);
/* Moves that decide a fight at once for the side to move, marked GO_TACTIC_DECIDES in marks[]
   (room for b->npoints bytes): the capture of an enemy chain in atari; an escape of an own
   chain in atari (a capture of an attacker, or a run that gets out, not into a ladder); at two
   liberties, the atari that kills an enemy chain, and the moves that save an own chain an atari
   would ladder. Chains of at least min_size stones. The other legal moves that leave a chain
   of two stones or more in atari (and capture nothing) are marked GO_TACTIC_SELF_ATARI.
   Returns how many points are marked. */
enum { GO_TACTIC_DECIDES = 1, GO_TACTIC_SELF_ATARI = 2 };
int go_tactical_moves(const go_board *b, int min_size, uint8_t *marks);
/* 1 when a 3x3 shape matches around the empty point. */
int go_pattern_match(const go_board *b, int point);
/* Liberties (up to 3) color would have after playing the empty point. */
int go_libs_after(const go_board *b, int color, int point);

/* Marks for the side to move on the liberties of two-liberty chains (go_two_liberty_marks):
   GO_MARK_SAVE extends an own chain to three liberties or more, GO_MARK_KILL is an atari on an
   enemy chain that its other liberty cannot escape. */
enum { GO_MARK_SAVE = 1, GO_MARK_KILL = 2 };
/* marks[point] for every point of the board (room for b->npoints bytes). */
void go_two_liberty_marks(const go_board *b, uint8_t *marks);

/* Learned priors (shape.c). A move's classes, one small value per group: */
enum {
    GO_CLASS_CAPTURE,     /* 0 none, 1 one stone, 2 more */
    GO_CLASS_ESCAPE,      /* 0 none, 1 extends an own chain out of atari, 2 into a lost ladder */
    GO_CLASS_SELF_ATARI,  /* 0 none, 1 a lone stone, 2 a chain */
    GO_CLASS_ATARI,       /* 1 when it takes an enemy chain down to one liberty */
    GO_CLASS_MARK,        /* GO_MARK_* bits of go_two_liberty_marks */
    GO_CLASS_OWN_EYE,     /* fills an own eye */
    GO_CLASS_DIST1,       /* Manhattan distance to the last move, 1..4 (0: farther or none) */
    GO_CLASS_DIST2,       /* the same for the move before it */
    GO_CLASS_LINE,        /* 0..3: first, second, third, fourth line or higher */
    GO_CLASS_GROUPS
};
#define GO_CLASS_VALUES 5
/* 3x3 shape around point for color: per cell (NW N NE W E SW S SE) 3 bits, colour relative
   to color (0 empty, 1 own, 2 enemy, 3 off board) plus 4 for an orthogonal chain in atari. */
uint32_t go_shape_key(const go_board *b, int color, int point);
/* The smallest key among the 8 rotations and reflections of a shape. */
uint32_t go_shape_canonical(uint32_t key);
/* Classes of color's legal move at point into cls[GO_CLASS_GROUPS]; marks may be NULL. */
void go_move_classes(const go_board *b, int color, int point, const uint8_t *marks, uint8_t *cls);
/* Hashes of the large patterns around point for color (colours relative to color, off-board
   cells included), sizes 0..GO_PATTERN_SIZES-1, seen through symmetries 0..nsym-1 (0 is the
   board as it stands): out[sym * GO_PATTERN_SIZES + size]. Call go_shape_init once first. */
void go_pattern_hashes(const go_board *b, int color, int point, int nsym, uint64_t *out);
/* Learned strength of the move (product of its shape's, classes' and large pattern's gammas); call
   go_shape_init once first. */
void go_shape_init(void);
float go_move_gamma(const go_board *b, int color, int point, const uint8_t *marks);

/* Owner of a point after a playout: +1 black (a stone, or an empty point next to black stones
   only), -1 white, 0 otherwise. */
static inline int go_point_owner(const go_board *b, int p)
{
    int c = b->color[p];
    if (c == GO_EMPTY) {
        int t = 0, nb[4] = {p - 1, p + 1, p - b->stride, p + b->stride};
        for (int k = 0; k < 4; k++)
            if (b->color[nb[k]] != GO_BORDER)
                t |= b->color[nb[k]];
        c = t;
    }
    return c == GO_BLACK ? 1 : c == GO_WHITE ? -1 : 0;
}

/* Judging a board (score.c); the go_game_* scoring functions are these on the game's board.
   They only read b, and draw from rng. Outputs are row-major, out[y * size + x]. */
void go_score_pass_alive(const go_board *b, uint8_t *out);
void go_score_ownership(const go_board *b, int playouts, go_rng *rng, float *own);
int go_score_dead_stones(const go_board *b, int playouts, go_rng *rng, uint8_t *out);
/* Area score after removing dead stones, minus komi. */
double go_score_final(const go_board *b, double komi, int playouts, go_rng *rng);

/* The learned value of b for its side to move (value.c), and the planes it reads; see
   go_game_value and go_game_value_planes in go.h. */
float go_value_eval(const go_board *b, float *ownership);
/* The same, and the policy too unless NULL: policy[y * size + x] (a pass at size * size) gets
   a weight for the side to move's next move, e^(sharpen (logit - the largest)): the policy's
   odds raised to the power SHARPEN (1 as trained); 0 on occupied points (and everywhere when
   out of memory). */
float go_value_eval_policy(const go_board *b, float *ownership, float *policy, float sharpen);
int go_value_planes(const go_board *b, float *out);

#endif
