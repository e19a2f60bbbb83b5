using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

/// <summary>
/// A cell: x grows to the right, y grows downwards, and (0, 0) is the
/// top-left corner, i.e. the first character of the board string.
/// </summary>
public struct Point
{
    public readonly int X;
    public readonly int Y;

    public Point(int x, int y)
    {
        X = x;
        Y = y;
    }

    public Point Shift(Direction d)
    {
        return new Point(X + d.Dx(), Y + d.Dy());
    }

    public int Distance(Point other)
    {
        return Math.Abs(X - other.X) + Math.Abs(Y - other.Y);
    }

    public override string ToString()
    {
        return "(" + X + ", " + Y + ")";
    }
}

/// <summary>The four moves, as the server spells them.</summary>
public enum Direction { UP, DOWN, LEFT, RIGHT }

public static class Directions
{
    public static int Dx(this Direction d)
    {
        return d == Direction.LEFT ? -1 : d == Direction.RIGHT ? 1 : 0;
    }

    public static int Dy(this Direction d)
    {
        return d == Direction.UP ? -1 : d == Direction.DOWN ? 1 : 0;
    }

    public static Direction Reverse(this Direction d)
    {
        switch (d)
        {
            case Direction.UP: return Direction.DOWN;
            case Direction.DOWN: return Direction.UP;
            case Direction.LEFT: return Direction.RIGHT;
            default: return Direction.LEFT;
        }
    }

    /// <summary>Which way a head glyph says the snake is going, or null.</summary>
    public static Direction? OfHead(Element head)
    {
        switch (head)
        {
            case Element.HEAD_UP: return Direction.UP;
            case Element.HEAD_DOWN: return Direction.DOWN;
            case Element.HEAD_LEFT: return Direction.LEFT;
            case Element.HEAD_RIGHT: return Direction.RIGHT;
            default: return null;
        }
    }
}

/// <summary>One board as the server sent it, with helpers to ask it questions.</summary>
public sealed class Board
{
    public readonly int Size;
    private readonly Element[] cells;

    public Board(string text)
    {
        if (text.StartsWith("board=", StringComparison.Ordinal))
        {
            text = text.Substring("board=".Length);
        }
        // Every glyph is in the BMP, so one C# char is one cell.
        Size = (int)Math.Round(Math.Sqrt(text.Length));
        if (Size * Size != text.Length)
        {
            throw new ArgumentException("a board has a square number of cells, not " + text.Length);
        }
        cells = text.Select(Elements.Of).ToArray();
    }

    /// <summary>The element at (x, y); WALL outside the board.</summary>
    public Element GetAt(int x, int y)
    {
        if (x < 0 || y < 0 || x >= Size || y >= Size)
        {
            return Element.WALL;
        }
        return cells[y * Size + x];
    }

    public Element GetAt(Point p)
    {
        return GetAt(p.X, p.Y);
    }

    /// <summary>Every cell holding one of the elements, in reading order.</summary>
    public List<Point> FindAll(params Element[] elements)
    {
        return FindWhere(e => elements.Contains(e));
    }

    private List<Point> FindWhere(Func<Element, bool> test)
    {
        var found = new List<Point>();
        for (int i = 0; i < cells.Length; i++)
        {
            if (test(cells[i]))
            {
                found.Add(new Point(i % Size, i / Size));
            }
        }
        return found;
    }

    /// <summary>My head, or null when it is not on the board.</summary>
    public Point? GetMyHead()
    {
        var heads = FindWhere(e => e.IsMyHead());
        return heads.Count > 0 ? heads[0] : (Point?)null;
    }

    /// <summary>Every cell of my snake except the head.</summary>
    public List<Point> GetMyBody() { return FindWhere(e => e.IsMyBody()); }

    public int GetMyLength() { return GetMyBody().Count + (GetMyHead().HasValue ? 1 : 0); }

    public bool IsAlive()
    {
        var head = GetMyHead();
        return head.HasValue && GetAt(head.Value) != Element.HEAD_DEAD;
    }

    public bool IsSleeping()
    {
        var head = GetMyHead();
        return head.HasValue && GetAt(head.Value) == Element.HEAD_SLEEP;
    }

    public List<Point> GetEnemyHeads() { return FindWhere(e => e.IsEnemyHead()); }

    public List<Point> GetEnemyBody() { return FindWhere(e => e.IsEnemyBody()); }

    public List<Point> GetApples() { return FindAll(Element.APPLE); }

    public List<Point> GetGold() { return FindAll(Element.GOLD); }

    public List<Point> GetStones() { return FindAll(Element.STONE); }

    public List<Point> GetWalls() { return FindAll(Element.WALL); }

    public List<Point> GetStartFloors() { return FindAll(Element.START_FLOOR); }

    public List<Point> GetFuryPills() { return FindAll(Element.FURY_PILL); }

    public List<Point> GetFlyingPills() { return FindAll(Element.FLYING_PILL); }

    /// <summary>
    /// Whether moving the head onto (x, y) kills or hurts: walls, start
    /// floors, anything off the board, and any snake.
    /// </summary>
    public bool IsBarrier(int x, int y) { return GetAt(x, y).IsBarrier(); }

    public bool IsBarrier(Point p) { return IsBarrier(p.X, p.Y); }

    public override string ToString()
    {
        var text = new StringBuilder();
        for (int i = 0; i < cells.Length; i++)
        {
            if (i > 0 && i % Size == 0)
            {
                text.Append('\n');
            }
            text.Append(cells[i].Glyph());
        }
        return text.ToString();
    }
}
