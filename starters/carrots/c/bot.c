/* CodeCarrots snakes starter bot: a random safe mover (C, no dependencies).
 * Each tick reads the board, exactly HEIGHT lines of WIDTH characters (`.`
 * empty, `o` apple, `#` any snake, `H` our head), and answers `left`,
 * `right`, `up` or `down`. The size comes from the command line (default
 * 120 80), since the board has no header. See ../README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char board[1000][1010];

int main(int argc, char **argv) {
    int w = argc > 2 ? atoi(argv[1]) : 120, h = argc > 2 ? atoi(argv[2]) : 80;
    if (w < 1 || w > 1000 || h < 1 || h > 1000) return 2;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    const char *names[] = {"up", "right", "down", "left"};
    const int dx[] = {0, 1, 0, -1}, dy[] = {-1, 0, 1, 0};
    for (;;) {
        int x = -1, y = -1;
        for (int i = 0; i < h; i++) {
            if (!fgets(board[i], sizeof board[i], stdin)) return 0; /* no more boards */
            char *p = strchr(board[i], 'H');
            if (p) { y = i; x = (int)(p - board[i]); }
        }
        /* Leaving the board kills, and so does any snake cell. */
        int safe[4], k = 0;
        for (int d = 0; d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (nx >= 0 && nx < w && ny >= 0 && ny < h && (board[ny][nx] == '.' || board[ny][nx] == 'o'))
                safe[k++] = d;
        }
        printf("%s\n", names[k ? safe[rand() % k] : 0]);
        fflush(stdout);
    }
}
