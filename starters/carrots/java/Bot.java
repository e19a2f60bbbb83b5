// CodeCarrots snakes starter bot: a random safe mover (Java, no
// dependencies). Each tick reads the board, exactly HEIGHT lines of WIDTH
// characters (`.` empty, `o` apple, `#` any snake, `H` our head), and
// answers `left`, `right`, `up` or `down`. The size comes from the command
// line (default 120 80), since the board has no header. See ../README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Bot {
    public static void main(String[] args) throws Exception {
        int w = args.length > 1 ? Integer.parseInt(args[0]) : 120;
        int h = args.length > 1 ? Integer.parseInt(args[1]) : 80;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String[] names = {"up", "right", "down", "left"};
        int[] dx = {0, 1, 0, -1}, dy = {-1, 0, 1, 0};
        Random rnd = new Random();
        String[] rows = new String[h];
        while (true) {
            int x = -1, y = -1;
            for (int i = 0; i < h; i++) {
                rows[i] = in.readLine();
                if (rows[i] == null) return; // no more boards
                if (rows[i].indexOf('H') >= 0) { y = i; x = rows[i].indexOf('H'); }
            }
            // Leaving the board kills, and so does any snake cell.
            List<String> safe = new ArrayList<>();
            for (int d = 0; d < 4; d++) {
                int nx = x + dx[d], ny = y + dy[d];
                if (nx < 0 || nx >= w || ny < 0 || ny >= h) continue;
                char c = rows[ny].charAt(nx);
                if (c == '.' || c == 'o') safe.add(names[d]);
            }
            System.out.println(safe.isEmpty() ? "up" : safe.get(rnd.nextInt(safe.size())));
            System.out.flush();
        }
    }
}
