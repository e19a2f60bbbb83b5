import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A SnakeBattle bot: connects to the server, answers every board with one
 * command, and reconnects when the connection drops.
 *
 * <pre>
 *     java -cp out Main [PLAYER_PAGE_URL] [--ticks N]
 * </pre>
 *
 * Without a URL argument it uses URL below. --ticks N (or the environment
 * variable SNAKEPIT_TICKS) stops after N boards.
 */
public final class Main {
    /** The address of your player page, copied from the browser as it is. */
    static final String URL = "SNAKEPIT_PLAYER_URL";

    static final long RECONNECT_DELAY_MS = 2000;

    /**
     * The bot socket's address, derived from the player page's address:
     * http://HOST/codenjoy-contest/board/player/ID?code=CODE
     * becomes ws://HOST/codenjoy-contest/ws?user=ID&amp;code=CODE
     */
    static String wsUrl(String pageUrl) {
        String url = pageUrl.trim();
        if (url.startsWith("http")) {
            url = "ws" + url.substring("http".length());
        }
        return url.replaceFirst("board/player/", "ws?user=").replaceFirst("\\?code=", "&code=");
    }

    private final Solver solver = new Solver();
    private final AtomicInteger answered = new AtomicInteger();
    private final Integer ticks;

    private Main(Integer ticks) {
        this.ticks = ticks;
    }

    private boolean done() {
        return ticks != null && answered.get() >= ticks;
    }

    /** Plays until the tick limit is reached (forever without one). */
    private void play(String url) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        while (!done()) {
            System.out.println("connecting to " + url);
            CompletableFuture<String> ended = new CompletableFuture<>();
            try {
                http.newWebSocketBuilder().buildAsync(URI.create(url), new Session(ended)).join();
                String why = ended.join();
                if (!done()) {
                    System.out.println("disconnected: " + why + "; retrying in " + RECONNECT_DELAY_MS / 1000 + " s");
                }
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                System.out.println("cannot connect: " + cause + "; retrying in " + RECONNECT_DELAY_MS / 1000 + " s");
            }
            if (!done()) {
                Thread.sleep(RECONNECT_DELAY_MS);
            }
        }
        System.out.println("done: answered " + answered.get() + " boards");
    }

    /** One connection; completes `ended` with the reason it ended. */
    private final class Session implements WebSocket.Listener {
        private final CompletableFuture<String> ended;
        // A long message may arrive in parts.
        private final StringBuilder message = new StringBuilder();

        Session(CompletableFuture<String> ended) {
            this.ended = ended;
        }

        @Override
        public void onOpen(WebSocket ws) {
            System.out.println("connected");
            ws.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            message.append(data);
            if (!last) {
                ws.request(1);
                return null;
            }
            String text = message.toString();
            message.setLength(0);
            if (!text.startsWith("board=") || done()) {
                ws.request(1);
                return null;
            }
            Board board = new Board(text);
            String command = solver.choose(board);
            int n = answered.incrementAndGet();
            System.out.println("board " + n + ": head " + board.getMyHead() + " -> " + command);
            ws.sendText(command, true).whenComplete((sent, error) -> {
                if (error != null) {
                    ended.complete("send failed: " + error);
                } else if (done()) {
                    ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").whenComplete((c, e) -> ended.complete("done"));
                } else {
                    ws.request(1);
                }
            });
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            ended.complete("closed (" + code + " " + reason + ")");
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            ended.complete(error.toString());
        }
    }

    public static void main(String[] args) throws InterruptedException {
        String url = URL;
        String ticks = System.getenv("SNAKEPIT_TICKS");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--ticks") && i + 1 < args.length) {
                ticks = args[++i];
            } else if (args[i].startsWith("--ticks=")) {
                ticks = args[i].substring("--ticks=".length());
            } else {
                url = args[i];
            }
        }
        if (!url.startsWith("http")) {
            System.err.println("Pass your player page URL (http://.../board/player/ID?code=CODE) "
                    + "as the first argument, or paste it into URL in Main.java.");
            System.exit(2);
        }
        Integer limit = ticks == null || ticks.isEmpty() ? null : Integer.valueOf(ticks);
        new Main(limit).play(wsUrl(url));
        // The HTTP client's threads would keep the JVM alive.
        System.exit(0);
    }
}
