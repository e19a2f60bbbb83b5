// Runs a KingOfBots bot unmodified: a class implementing
// java.util.function.Supplier<Integer> that reads its input from
// `input.txt` in the working folder, as upstream's bot runner calls it
// (stdio-arenas.md §2). Each round this harness reads the input line from
// stdin, writes it to ./input.txt, calls get() on a new instance (upstream
// makes a new one every move, so bots keep no state between moves), and
// prints the answer. One JVM serves the whole game, so start-up is paid
// once.
//
// Usage: java -cp <classes> Harness [bot class name]
// (default com.ilvxgee.botrunningsystem.utils.Bot, the seed's package).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

public class Harness {
    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "com.ilvxgee.botrunningsystem.utils.Bot";
        Class<?> cls = Class.forName(name);
        // A bot class need not be public (KingOfBots compiles it into its
        // own package, where it is reachable either way).
        var make = cls.getDeclaredConstructor();
        make.setAccessible(true);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Path input = Path.of("input.txt");
        for (String line; (line = in.readLine()) != null; ) {
            Files.writeString(input, line + "\n", StandardCharsets.UTF_8);
            @SuppressWarnings("unchecked")
            Supplier<Integer> bot = (Supplier<Integer>) make.newInstance();
            // An exception ends the harness, so the runner sees the bot fail
            // (with the stack trace on stderr) instead of a made-up move.
            Integer move = bot.get();
            System.out.println(move);
            System.out.flush();
        }
    }
}
