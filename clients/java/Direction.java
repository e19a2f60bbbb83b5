/** The four moves, as the server spells them. */
public enum Direction {
    UP(0, -1),
    DOWN(0, 1),
    LEFT(-1, 0),
    RIGHT(1, 0);

    public final int dx;
    public final int dy;

    Direction(int dx, int dy) {
        this.dx = dx;
        this.dy = dy;
    }

    public Direction reverse() {
        switch (this) {
            case UP: return DOWN;
            case DOWN: return UP;
            case LEFT: return RIGHT;
            default: return LEFT;
        }
    }

    /** Which way a head glyph says the snake is going, or null. */
    public static Direction ofHead(Element head) {
        switch (head) {
            case HEAD_UP: return UP;
            case HEAD_DOWN: return DOWN;
            case HEAD_LEFT: return LEFT;
            case HEAD_RIGHT: return RIGHT;
            default: return null;
        }
    }
}
