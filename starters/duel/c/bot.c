/* KingOfBots Snake starter bot: a random safe mover (C, no dependencies).
 * Each round reads one line,
 * `<map>#<row>#<col>#(<steps>)#<row>#<col>#(<steps>)` (own snake first; the
 * map is 13 rows of `0` grass and `1` wall), rebuilds both snakes by
 * replaying their steps, and answers 0 (up), 1 (right), 2 (down) or
 * 3 (left). See ../README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROWS 13
static const int DR[] = {-1, 0, 1, 0}, DC[] = {0, 1, 0, -1};
static char line[1 << 16];
static int cells[4096]; /* one snake, tail first, as row*cols+col */

/* Marks the snake's cells in `blocked`; returns its head. It grows on steps
 * 1-10, then every 3rd, so the tail is replayed the same way. */
static int mark(char *blocked, int cols, int r, int c, const char *steps) {
    int tail = 0, len = 0;
    cells[len++] = r * cols + c;
    for (int n = 1; steps[n] && steps[n] != ')'; n++) {
        int d = steps[n] - '0';
        r += DR[d], c += DC[d];
        cells[len++] = r * cols + c;
        if (!(n <= 10 || n % 3 == 1)) tail++;
    }
    for (int i = tail; i < len; i++) blocked[cells[i]] = 1;
    return cells[len - 1];
}

int main(void) {
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    while (fgets(line, sizeof line, stdin)) {
        char *p[7], *save = NULL;
        p[0] = strtok_r(line, "#\n", &save);
        for (int i = 1; i < 7; i++) p[i] = strtok_r(NULL, "#\n", &save);
        if (!p[6]) return 1;
        int size = (int)strlen(p[0]), cols = size / ROWS;
        char *blocked = calloc((size_t)size, 1);
        for (int i = 0; i < size; i++) blocked[i] = p[0][i] == '1';
        int head = mark(blocked, cols, atoi(p[1]), atoi(p[2]), p[3]);
        mark(blocked, cols, atoi(p[4]), atoi(p[5]), p[6]);
        int r = head / cols, c = head % cols, safe[4], k = 0;
        for (int d = 0; d < 4; d++) {
            int nr = r + DR[d], nc = c + DC[d];
            if (nr >= 0 && nr < ROWS && nc >= 0 && nc < cols && !blocked[nr * cols + nc]) safe[k++] = d;
        }
        free(blocked);
        printf("%d\n", k ? safe[rand() % k] : 0);
        fflush(stdout);
    }
    return 0;
}
