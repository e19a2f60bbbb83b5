using System.Collections.Generic;

/// <summary>
/// Every glyph of the SnakeBattle board, in the order of Codenjoy's Element
/// enum.
/// </summary>
public enum Element
{
    // Field objects.
    NONE, WALL, START_FLOOR, OTHER, APPLE, STONE, FLYING_PILL, FURY_PILL, GOLD,

    // My snake.
    HEAD_DOWN, HEAD_LEFT, HEAD_RIGHT, HEAD_UP, HEAD_DEAD, HEAD_EVIL, HEAD_FLY, HEAD_SLEEP,
    TAIL_END_DOWN, TAIL_END_LEFT, TAIL_END_UP, TAIL_END_RIGHT, TAIL_INACTIVE,
    BODY_HORIZONTAL, BODY_VERTICAL, BODY_LEFT_DOWN, BODY_LEFT_UP, BODY_RIGHT_DOWN, BODY_RIGHT_UP,

    // Enemy snakes.
    ENEMY_HEAD_DOWN, ENEMY_HEAD_LEFT, ENEMY_HEAD_RIGHT, ENEMY_HEAD_UP, ENEMY_HEAD_DEAD,
    ENEMY_HEAD_EVIL, ENEMY_HEAD_FLY, ENEMY_HEAD_SLEEP,
    ENEMY_TAIL_END_DOWN, ENEMY_TAIL_END_LEFT, ENEMY_TAIL_END_UP, ENEMY_TAIL_END_RIGHT, ENEMY_TAIL_INACTIVE,
    ENEMY_BODY_HORIZONTAL, ENEMY_BODY_VERTICAL, ENEMY_BODY_LEFT_DOWN, ENEMY_BODY_LEFT_UP,
    ENEMY_BODY_RIGHT_DOWN, ENEMY_BODY_RIGHT_UP,
}

public static class Elements
{
    /// <summary>The glyph of each element.</summary>
    public static readonly Dictionary<Element, char> Glyphs = new Dictionary<Element, char>
    {
        { Element.NONE, ' ' },
        { Element.WALL, '☼' },
        { Element.START_FLOOR, '#' },
        { Element.OTHER, '?' },
        { Element.APPLE, '○' },
        { Element.STONE, '●' },
        { Element.FLYING_PILL, '©' },
        { Element.FURY_PILL, '®' },
        { Element.GOLD, '$' },

        { Element.HEAD_DOWN, '▼' },
        { Element.HEAD_LEFT, '◄' },
        { Element.HEAD_RIGHT, '►' },
        { Element.HEAD_UP, '▲' },
        { Element.HEAD_DEAD, '☻' },
        { Element.HEAD_EVIL, '♥' },
        { Element.HEAD_FLY, '♠' },
        { Element.HEAD_SLEEP, '&' },
        { Element.TAIL_END_DOWN, '╙' },
        { Element.TAIL_END_LEFT, '╘' },
        { Element.TAIL_END_UP, '╓' },
        { Element.TAIL_END_RIGHT, '╕' },
        { Element.TAIL_INACTIVE, '~' },
        { Element.BODY_HORIZONTAL, '═' },
        { Element.BODY_VERTICAL, '║' },
        { Element.BODY_LEFT_DOWN, '╗' },
        { Element.BODY_LEFT_UP, '╝' },
        { Element.BODY_RIGHT_DOWN, '╔' },
        { Element.BODY_RIGHT_UP, '╚' },

        { Element.ENEMY_HEAD_DOWN, '˅' },
        { Element.ENEMY_HEAD_LEFT, '<' },
        { Element.ENEMY_HEAD_RIGHT, '>' },
        { Element.ENEMY_HEAD_UP, '˄' },
        { Element.ENEMY_HEAD_DEAD, '☺' },
        { Element.ENEMY_HEAD_EVIL, '♣' },
        { Element.ENEMY_HEAD_FLY, '♦' },
        { Element.ENEMY_HEAD_SLEEP, 'ø' },
        { Element.ENEMY_TAIL_END_DOWN, '¤' },
        { Element.ENEMY_TAIL_END_LEFT, '×' },
        { Element.ENEMY_TAIL_END_UP, 'æ' },
        { Element.ENEMY_TAIL_END_RIGHT, 'ö' },
        { Element.ENEMY_TAIL_INACTIVE, '*' },
        { Element.ENEMY_BODY_HORIZONTAL, '─' },
        { Element.ENEMY_BODY_VERTICAL, '│' },
        { Element.ENEMY_BODY_LEFT_DOWN, '┐' },
        { Element.ENEMY_BODY_LEFT_UP, '┘' },
        { Element.ENEMY_BODY_RIGHT_DOWN, '┌' },
        { Element.ENEMY_BODY_RIGHT_UP, '└' },
    };

    private static readonly Dictionary<char, Element> ByGlyph = Invert();

    private static Dictionary<char, Element> Invert()
    {
        var byGlyph = new Dictionary<char, Element>();
        foreach (var pair in Glyphs)
        {
            byGlyph[pair.Value] = pair.Key;
        }
        return byGlyph;
    }

    /// <summary>
    /// The element for a glyph; OTHER for one this client does not know, so
    /// that a newer server cannot crash an older client.
    /// </summary>
    public static Element Of(char glyph)
    {
        Element e;
        return ByGlyph.TryGetValue(glyph, out e) ? e : Element.OTHER;
    }

    public static char Glyph(this Element e)
    {
        return Glyphs[e];
    }

    public static bool IsMyHead(this Element e)
    {
        return e >= Element.HEAD_DOWN && e <= Element.HEAD_SLEEP;
    }

    /// <summary>Every cell of my snake but the head.</summary>
    public static bool IsMyBody(this Element e)
    {
        return e >= Element.TAIL_END_DOWN && e <= Element.BODY_RIGHT_UP;
    }

    public static bool IsEnemyHead(this Element e)
    {
        return e >= Element.ENEMY_HEAD_DOWN && e <= Element.ENEMY_HEAD_SLEEP;
    }

    public static bool IsEnemyBody(this Element e)
    {
        return e >= Element.ENEMY_TAIL_END_DOWN && e <= Element.ENEMY_BODY_RIGHT_UP;
    }

    /// <summary>
    /// Whether moving the head here kills or hurts: walls, start floors, any
    /// snake, and the unknown OTHER.
    /// </summary>
    public static bool IsBarrier(this Element e)
    {
        return e == Element.WALL || e == Element.START_FLOOR || e == Element.OTHER
            || e.IsMyHead() || e.IsMyBody() || e.IsEnemyHead() || e.IsEnemyBody();
    }
}
