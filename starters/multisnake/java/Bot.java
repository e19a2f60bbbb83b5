// SOI Multisnake starter bot: a random safe mover (Java, no dependencies).
// Reads the header `W H N M T` once, then H lines of W characters each
// turn, and answers one of `^ > v <`. The map wraps. See ../README.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Bot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String[] hd = in.readLine().trim().split("\\s+");
        int w = Integer.parseInt(hd[0]), h = Integer.parseInt(hd[1]);
        char me = (char) (64 + Integer.parseInt(hd[3]));
        char[] arrows = {'^', '>', 'v', '<'};
        int[] dx = {0, 1, 0, -1}, dy = {-1, 0, 1, 0};
        Random rnd = new Random();
        String[] rows = new String[h];
        while (true) {
            for (int i = 0; i < h; i++) {
                rows[i] = in.readLine();
                if (rows[i] == null) return; // no more maps: we are done
            }
            int x = -1, y = -1;
            for (int i = 0; i < h && y < 0; i++) {
                if (rows[i].indexOf(me) >= 0) { y = i; x = rows[i].indexOf(me); }
            }
            // Free tiles and signs are safe; everything else blocks.
            List<Character> safe = new ArrayList<>();
            for (int d = 0; d < 4; d++) {
                char c = rows[(y + dy[d] + h) % h].charAt((x + dx[d] + w) % w);
                if (c == '.' || c == '+' || c == '-') safe.add(arrows[d]);
            }
            System.out.println(safe.isEmpty() ? '^' : safe.get(rnd.nextInt(safe.size())));
            System.out.flush();
        }
    }
}
