/* value_probe.c - the core's learned network for positions read from stdin, built by
   test_learn_value.py (with -DVALUE_Q16_PLAIN: the plain C kernel). Commands: "n SIZE" starts
   an empty board; "p X Y" plays the side to move's move (-1 -1 passes); "?" prints the value,
   the ownership (size * size) and the policy (size * size + 1) on one line, each "%.9g". */
#include <stdio.h>

#include "go.h"

int main(void)
{
    go_game *g = NULL;
    static int cap[2 * 361];
    static float own[361], policy[362];
    int x, y, ncap, size = 0;
    char cmd;
    while (scanf(" %c", &cmd) == 1) {
        if (cmd == 'n') {
            go_game_free(g);
            if (scanf("%d", &size) != 1 || !(g = go_game_new(size, 7.0, 0)))
                return 2;
        } else if (cmd == 'p') {
            if (!g || scanf("%d %d", &x, &y) != 2 ||
                go_game_play(g, go_game_to_move(g), x, y, cap, &ncap) != GO_OK)
                return 3;
        } else if (g) {
            float v = go_game_value_policy(g, own, policy);
            printf("%.9g", v);
            for (int i = 0; i < size * size; i++)
                printf(" %.9g", own[i]);
            for (int i = 0; i <= size * size; i++)
                printf(" %.9g", policy[i]);
            printf("\n");
        }
    }
    go_game_free(g);
    return 0;
}
