import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/** One board as the server sent it, with helpers to ask it questions. */
public final class Board {
    public final int size;
    private final Element[] cells;

    public Board(String text) {
        if (text.startsWith("board=")) {
            text = text.substring("board=".length());
        }
        // Every glyph is in the BMP, so one Java char is one cell.
        size = (int) Math.round(Math.sqrt(text.length()));
        if (size * size != text.length()) {
            throw new IllegalArgumentException("a board has a square number of cells, not " + text.length());
        }
        cells = new Element[text.length()];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = Element.of(text.charAt(i));
        }
    }

    /** The element at (x, y); WALL outside the board. */
    public Element getAt(int x, int y) {
        if (x < 0 || y < 0 || x >= size || y >= size) {
            return Element.WALL;
        }
        return cells[y * size + x];
    }

    public Element getAt(Point p) {
        return getAt(p.x, p.y);
    }

    /** Every cell holding one of the elements, in reading order. */
    public List<Point> findAll(Element... elements) {
        EnumSet<Element> wanted = EnumSet.noneOf(Element.class);
        wanted.addAll(Arrays.asList(elements));
        List<Point> found = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            if (wanted.contains(cells[i])) {
                found.add(new Point(i % size, i / size));
            }
        }
        return found;
    }

    private List<Point> findWhere(java.util.function.Predicate<Element> test) {
        List<Point> found = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            if (test.test(cells[i])) {
                found.add(new Point(i % size, i / size));
            }
        }
        return found;
    }

    /** My head, or null when it is not on the board. */
    public Point getMyHead() {
        List<Point> heads = findWhere(Element::isMyHead);
        return heads.isEmpty() ? null : heads.get(0);
    }

    /** Every cell of my snake except the head. */
    public List<Point> getMyBody() {
        return findWhere(Element::isMyBody);
    }

    public int getMyLength() {
        return getMyBody().size() + (getMyHead() == null ? 0 : 1);
    }

    public boolean isAlive() {
        Point head = getMyHead();
        return head != null && getAt(head) != Element.HEAD_DEAD;
    }

    public boolean isSleeping() {
        Point head = getMyHead();
        return head != null && getAt(head) == Element.HEAD_SLEEP;
    }

    public List<Point> getEnemyHeads() {
        return findWhere(Element::isEnemyHead);
    }

    public List<Point> getEnemyBody() {
        return findWhere(Element::isEnemyBody);
    }

    public List<Point> getApples() {
        return findAll(Element.APPLE);
    }

    public List<Point> getGold() {
        return findAll(Element.GOLD);
    }

    public List<Point> getStones() {
        return findAll(Element.STONE);
    }

    public List<Point> getWalls() {
        return findAll(Element.WALL);
    }

    public List<Point> getStartFloors() {
        return findAll(Element.START_FLOOR);
    }

    public List<Point> getFuryPills() {
        return findAll(Element.FURY_PILL);
    }

    public List<Point> getFlyingPills() {
        return findAll(Element.FLYING_PILL);
    }

    /**
     * Whether moving the head onto (x, y) kills or hurts: walls, start
     * floors, anything off the board, and any snake.
     */
    public boolean isBarrier(int x, int y) {
        return getAt(x, y).isBarrier();
    }

    public boolean isBarrier(Point p) {
        return isBarrier(p.x, p.y);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0 && i % size == 0) {
                out.append('\n');
            }
            out.append(cells[i].glyph);
        }
        return out.toString();
    }
}
