/* value.c - the tree search's leaf value: a few facts of a position, seen from the side to
   move, turned into features and weighed by a logistic model whose weights are learned from
   self-play games (value_weights.h, written by engines/quoridor/learn_value.py).

   The facts: both shortest paths, both walls in hand, and what each side's best wall would
   gain now (the opponent's path lengthened less its own, at least 0). In the tree both come
   free from the leaf's expansion, which generates the other side's walls too (the threats its
   blocks answer). With no wall left on either side the game is a race, and the value is the
   race's (0.97 / 0.03). */
#include "quoridor.h"
#include "internal.h"

#include <math.h>

#include "value_weights.h"

#define VALUE_GAIN_CAP 10           /* a wall gaining more than this many steps is rare */

int qr_value_gain_of(const qr_board *b, const int d[2], const qr_gen_move *best)
{
    int me = b->to_move, opp = !me;
    if (!best)
        return 0;
    int gain = (best->d[opp] - d[opp]) - (best->d[me] - d[me]);
    return gain < 0 ? 0 : gain > VALUE_GAIN_CAP ? VALUE_GAIN_CAP : gain;
}

/* The gain of the best wall of b's side to move (mine) or of the other side (the threat),
   0 without walls; paths: b's (qr_search_gen_paths). */
static int value_best_gain(const qr_board *b, const qr_gen_paths *paths, int threat)
{
    qr_gen_move list[2 * QR_MAX_SLOTS];
    qr_board other;
    if (!threat)
        return qr_search_gen_walls(b, paths, list, 1) > 0 ? qr_value_gain_of(b, paths->d, &list[0]) : 0;
    return qr_search_gen_threats(b, paths, list, &other) > 0
               ? qr_value_gain_of(&other, paths->d, &list[0]) : 0;
}

int qr_leaf_facts(const qr_board *b, int *facts)
{
    int me = b->to_move, opp = !me;
    int d[2] = {qr_board_path_length(b, 0), qr_board_path_length(b, 1)};
    if (qr_board_winner(b) >= 0 || d[0] < 0 || d[1] < 0)
        return QR_ERR_GAME_OVER;
    facts[QR_FACT_PATH_ME] = d[me];
    facts[QR_FACT_PATH_OPP] = d[opp];
    facts[QR_FACT_WALLS_ME] = b->walls_left[me];
    facts[QR_FACT_WALLS_OPP] = b->walls_left[opp];
    facts[QR_FACT_GAIN_ME] = facts[QR_FACT_GAIN_OPP] = 0;
    if (b->walls_left[0] > 0 || b->walls_left[1] > 0) {
        qr_gen_paths paths;             /* one set for both sides' walls */
        qr_search_gen_paths(b, d, &paths);
        facts[QR_FACT_GAIN_ME] = value_best_gain(b, &paths, 0);
        facts[QR_FACT_GAIN_OPP] = value_best_gain(b, &paths, 1);
    }
    return QR_OK;
}

void qr_value_features(const int *facts, double *f)
{
    int dm = facts[QR_FACT_PATH_ME], dop = facts[QR_FACT_PATH_OPP];
    int wm = facts[QR_FACT_WALLS_ME], wop = facts[QR_FACT_WALLS_OPP];
    double diff = dop - dm;
    f[QR_FEATURE_BIAS] = 1.0;
    f[QR_FEATURE_PATHS] = diff;
    f[QR_FEATURE_WALLS] = wm - wop;
    f[QR_FEATURE_GAIN] = wm > 0 ? facts[QR_FACT_GAIN_ME] : 0;
    f[QR_FEATURE_THREAT] = wop > 0 ? facts[QR_FACT_GAIN_OPP] : 0;
    f[QR_FEATURE_NO_WALLS_ME] = wm == 0;
    f[QR_FEATURE_NO_WALLS_OPP] = wop == 0;
    f[QR_FEATURE_PATHS_NEAR_END] = 4.0 * diff / (dm + dop + 2);     /* a step counts more late */
    f[QR_FEATURE_FIRST_WALLS] = (wm < 2 ? wm : 2) - (wop < 2 ? wop : 2);
}

double qr_value_chance(const int *facts)
{
    if (facts[QR_FACT_WALLS_ME] == 0 && facts[QR_FACT_WALLS_OPP] == 0)
        return facts[QR_FACT_PATH_ME] <= facts[QR_FACT_PATH_OPP] ? 0.97 : 0.03;
    double f[QR_VALUE_FEATURES], e = 0.0;
    qr_value_features(facts, f);
    for (int i = 0; i < QR_VALUE_FEATURES; i++)
        e += VALUE_WEIGHTS[i] * f[i];
    return 1.0 / (1.0 + exp(-e));
}
