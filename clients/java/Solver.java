import java.util.ArrayList;
import java.util.List;

/**
 * The bot's brain: one command per board. Start modifying here.
 *
 * The strategy is deliberately simple: among the moves that do not hit a
 * barrier (and, if possible, do not eat a stone), take the one that brings
 * the head closest to the nearest apple or gold. The snake never turns back
 * on itself: the server would ignore a 180-degree turn anyway.
 */
public final class Solver {
    /** The command to send for this board. */
    public String choose(Board board) {
        Point head = board.getMyHead();
        if (head == null) {
            // Dead and not shown, or not seated yet: the answer does not
            // matter, but the server waits for one before the next board.
            return Direction.RIGHT.name();
        }
        Direction facing = Direction.ofHead(board.getAt(head));
        List<Point> targets = new ArrayList<>(board.getApples());
        targets.addAll(board.getGold());

        List<Direction> safe = new ArrayList<>();
        List<Direction> risky = new ArrayList<>();
        for (Direction d : Direction.values()) {
            Point next = head.shift(d);
            if ((facing != null && d == facing.reverse()) || board.isBarrier(next)) {
                continue;
            }
            (board.getAt(next) == Element.STONE ? risky : safe).add(d);
        }

        List<Direction> options = safe.isEmpty() ? risky : safe;
        if (options.isEmpty()) {
            // Every way is blocked: keep going and hope.
            return (facing == null ? Direction.RIGHT : facing).name();
        }
        Direction best = options.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (Direction d : options) {
            int distance = nearest(head.shift(d), targets);
            if (distance < bestDistance) {
                best = d;
                bestDistance = distance;
            }
        }
        return best.name();
    }

    private static int nearest(Point from, List<Point> targets) {
        int best = Integer.MAX_VALUE;
        for (Point t : targets) {
            best = Math.min(best, from.distance(t));
        }
        return best;
    }
}
