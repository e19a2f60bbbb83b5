// KingOfBots Snake starter bot: a random safe mover (Java, no dependencies).
// Each round reads one line,
// `<map>#<row>#<col>#(<steps>)#<row>#<col>#(<steps>)` (own snake first; the
// map is 13 rows of `0` grass and `1` wall), rebuilds both snakes by
// replaying their steps, and answers 0 (up), 1 (right), 2 (down) or
// 3 (left). See ../README.md. (The seed's own Supplier<Integer> bot runs
// through ../java-harness instead.)
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Bot {
    static final int ROWS = 13;
    static final int[] DR = {-1, 0, 1, 0}, DC = {0, 1, 0, -1};

    /** The snake's cells as row*cols+col, tail first; it grows on steps 1-10, then every 3rd. */
    static ArrayDeque<Integer> body(int r, int c, String steps, int cols) {
        ArrayDeque<Integer> cells = new ArrayDeque<>();
        cells.add(r * cols + c);
        for (int n = 1; n < steps.length() - 1; n++) {
            int d = steps.charAt(n) - '0';
            r += DR[d];
            c += DC[d];
            cells.add(r * cols + c);
            if (!(n <= 10 || n % 3 == 1)) cells.removeFirst();
        }
        return cells;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rnd = new Random();
        for (String line; (line = in.readLine()) != null; ) {
            String[] p = line.trim().split("#");
            int cols = p[0].length() / ROWS;
            boolean[] blocked = new boolean[p[0].length()];
            for (int i = 0; i < blocked.length; i++) blocked[i] = p[0].charAt(i) == '1';
            ArrayDeque<Integer> me = body(Integer.parseInt(p[1]), Integer.parseInt(p[2]), p[3], cols);
            ArrayDeque<Integer> you = body(Integer.parseInt(p[4]), Integer.parseInt(p[5]), p[6], cols);
            for (int i : me) blocked[i] = true;
            for (int i : you) blocked[i] = true;
            int r = me.getLast() / cols, c = me.getLast() % cols;
            List<Integer> safe = new ArrayList<>();
            for (int d = 0; d < 4; d++) {
                int nr = r + DR[d], nc = c + DC[d];
                if (nr >= 0 && nr < ROWS && nc >= 0 && nc < cols && !blocked[nr * cols + nc]) safe.add(d);
            }
            System.out.println(safe.isEmpty() ? 0 : safe.get(rnd.nextInt(safe.size())));
            System.out.flush();
        }
    }
}
