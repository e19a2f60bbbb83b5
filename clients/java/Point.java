/**
 * A cell: x grows to the right, y grows downwards, and (0, 0) is the
 * top-left corner, i.e. the first character of the board string.
 */
public final class Point {
    public final int x;
    public final int y;

    public Point(int x, int y) {
        this.x = x;
        this.y = y;
    }

    public Point shift(Direction d) {
        return new Point(x + d.dx, y + d.dy);
    }

    public int distance(Point other) {
        return Math.abs(x - other.x) + Math.abs(y - other.y);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Point && ((Point) o).x == x && ((Point) o).y == y;
    }

    @Override
    public int hashCode() {
        return x * 31 + y;
    }

    @Override
    public String toString() {
        return "(" + x + ", " + y + ")";
    }
}
