// Runs a KingOfBots bot unmodified: a class implementing
// java.util.function.Supplier<Integer> that reads its input from
// `input.txt` in the working folder, as upstream's bot runner calls it
// (stdio-arenas.md §2). Each round this harness reads the input line from
// stdin, writes it to ./input.txt, calls get() and prints the answer.
//
// Upstream compiles the bot afresh for every move, so nothing a bot keeps,
// not even in static fields, lasts from one move to the next. Here each
// move loads the bot's classes again, in a class loader of their own, and
// calls get() on a new instance: the same clean start, while one JVM serves
// the whole game, so start-up is paid once.
//
// Upstream calls get() inside its own process, where what the bot prints is
// only logged. Here the answer goes to stdout, so while get() runs anything
// the bot prints to System.out goes to stderr instead (its owner sees it).
//
// Usage: java -cp <classes> Harness [bot class name]
// (default com.ilvxgee.botrunningsystem.utils.Bot, the seed's package).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

public class Harness {
    /** Loads the classes found under the class path's folder itself, so
     * that every loader has its own copy of the bot's classes (and of their
     * static fields); everything else (the JDK) comes from the parent. */
    static final class Fresh extends ClassLoader {
        private final Path root;

        Fresh(Path root, ClassLoader parent) {
            super(parent);
            this.root = root;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    Path file = root.resolve(name.replace('.', '/') + ".class");
                    boolean ours = !name.equals("Harness") && !name.startsWith("Harness$");
                    if (!ours || !Files.isRegularFile(file)) {
                        return super.loadClass(name, resolve);
                    }
                    try {
                        byte[] bytes = Files.readAllBytes(file);
                        c = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "com.ilvxgee.botrunningsystem.utils.Bot";
        String classPath = System.getProperty("java.class.path", ".");
        Path root = Path.of(classPath.split(java.io.File.pathSeparator)[0]);
        ClassLoader parent = Harness.class.getClassLoader();
        PrintStream answers = System.out;
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Path input = Path.of("input.txt");
        for (String line; (line = in.readLine()) != null; ) {
            Files.writeString(input, line + "\n", StandardCharsets.UTF_8);
            Class<?> cls = Class.forName(name, true, new Fresh(root, parent));
            // A bot class need not be public (KingOfBots compiles it into
            // its own package, where it is reachable either way).
            var make = cls.getDeclaredConstructor();
            make.setAccessible(true);
            @SuppressWarnings("unchecked")
            Supplier<Integer> bot = (Supplier<Integer>) make.newInstance();
            // An exception ends the harness, so the runner sees the bot fail
            // (with the stack trace on stderr) instead of a made-up move.
            Integer move = bot.get();
            answers.println(move);
            answers.flush();
        }
    }
}
