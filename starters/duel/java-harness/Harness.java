// Runs a KingOfBots bot unmodified: a class implementing
// java.util.function.Supplier<Integer> that reads its input from
// `input.txt` in the working folder, as upstream's bot runner calls it
// (stdio-arenas.md §2). Each round this harness reads the input line from
// stdin, writes it to ./input.txt, calls get() and prints the answer.
//
// Upstream compiles the bot afresh for every move, so nothing a bot keeps,
// not even in static fields, lasts from one move to the next. Here each
// move loads the bot's classes again (from folders and jars alike), in a
// class loader of their own, and calls get() on a new instance: the same
// clean start, while one JVM serves the whole game, so start-up is paid
// once.
//
// Upstream calls get() inside its own process, where what the bot prints is
// only logged. Here the answer goes to stdout, so while get() runs anything
// the bot prints to System.out goes to stderr instead (its owner sees it).
//
// Usage: java -cp <classes> Harness [bot class name]
// (default com.ilvxgee.botrunningsystem.utils.Bot, the seed's package).
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

public class Harness {
    /** The class path as URLs, for a loader of the bot's own each move. */
    static URL[] classPath() throws Exception {
        String[] entries = System.getProperty("java.class.path", ".").split(File.pathSeparator);
        URL[] urls = new URL[entries.length];
        for (int i = 0; i < entries.length; i++) {
            urls[i] = Path.of(entries[i].isEmpty() ? "." : entries[i]).toUri().toURL();
        }
        return urls;
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "com.ilvxgee.botrunningsystem.utils.Bot";
        URL[] urls = classPath();
        // The platform loader, not the application's, is the parent: it has
        // the JDK but not the class path, so every class of the bot (from a
        // folder or a jar) is loaded again by each move's loader.
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        PrintStream answers = System.out;
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Path input = Path.of("input.txt");
        for (String line; (line = in.readLine()) != null; ) {
            Files.writeString(input, line + "\n", StandardCharsets.UTF_8);
            Integer move;
            try (URLClassLoader loader = new URLClassLoader(urls, parent)) {
                Class<?> cls = Class.forName(name, true, loader);
                // A bot class need not be public (KingOfBots compiles it
                // into its own package, where it is reachable either way).
                var make = cls.getDeclaredConstructor();
                make.setAccessible(true);
                @SuppressWarnings("unchecked")
                Supplier<Integer> bot = (Supplier<Integer>) make.newInstance();
                // An exception ends the harness, so the runner sees the bot
                // fail (with the stack trace on stderr) instead of a made-up
                // move.
                move = bot.get();
            }
            answers.println(move);
            answers.flush();
        }
    }
}
