/**
 * Every glyph of the SnakeBattle board, in the order of Codenjoy's Element
 * enum.
 */
public enum Element {
    // Field objects.
    NONE(' '),
    WALL('☼'),
    START_FLOOR('#'),
    OTHER('?'),
    APPLE('○'),
    STONE('●'),
    FLYING_PILL('©'),
    FURY_PILL('®'),
    GOLD('$'),

    // My snake.
    HEAD_DOWN('▼'),
    HEAD_LEFT('◄'),
    HEAD_RIGHT('►'),
    HEAD_UP('▲'),
    HEAD_DEAD('☻'),
    HEAD_EVIL('♥'),
    HEAD_FLY('♠'),
    HEAD_SLEEP('&'),
    TAIL_END_DOWN('╙'),
    TAIL_END_LEFT('╘'),
    TAIL_END_UP('╓'),
    TAIL_END_RIGHT('╕'),
    TAIL_INACTIVE('~'),
    BODY_HORIZONTAL('═'),
    BODY_VERTICAL('║'),
    BODY_LEFT_DOWN('╗'),
    BODY_LEFT_UP('╝'),
    BODY_RIGHT_DOWN('╔'),
    BODY_RIGHT_UP('╚'),

    // Enemy snakes.
    ENEMY_HEAD_DOWN('˅'),
    ENEMY_HEAD_LEFT('<'),
    ENEMY_HEAD_RIGHT('>'),
    ENEMY_HEAD_UP('˄'),
    ENEMY_HEAD_DEAD('☺'),
    ENEMY_HEAD_EVIL('♣'),
    ENEMY_HEAD_FLY('♦'),
    ENEMY_HEAD_SLEEP('ø'),
    ENEMY_TAIL_END_DOWN('¤'),
    ENEMY_TAIL_END_LEFT('×'),
    ENEMY_TAIL_END_UP('æ'),
    ENEMY_TAIL_END_RIGHT('ö'),
    ENEMY_TAIL_INACTIVE('*'),
    ENEMY_BODY_HORIZONTAL('─'),
    ENEMY_BODY_VERTICAL('│'),
    ENEMY_BODY_LEFT_DOWN('┐'),
    ENEMY_BODY_LEFT_UP('┘'),
    ENEMY_BODY_RIGHT_DOWN('┌'),
    ENEMY_BODY_RIGHT_UP('└');

    public final char glyph;

    Element(char glyph) {
        this.glyph = glyph;
    }

    /**
     * The element for a glyph; OTHER for one this client does not know, so
     * that a newer server cannot crash an older client.
     */
    public static Element of(char glyph) {
        for (Element e : values()) {
            if (e.glyph == glyph) {
                return e;
            }
        }
        return OTHER;
    }

    public boolean isMyHead() {
        return name().startsWith("HEAD_");
    }

    /** Every cell of my snake but the head. */
    public boolean isMyBody() {
        return name().startsWith("BODY_") || name().startsWith("TAIL_");
    }

    public boolean isEnemyHead() {
        return name().startsWith("ENEMY_HEAD_");
    }

    public boolean isEnemyBody() {
        return name().startsWith("ENEMY_BODY_") || name().startsWith("ENEMY_TAIL_");
    }

    /**
     * Whether moving the head here kills or hurts: walls, start floors, any
     * snake, and the unknown OTHER.
     */
    public boolean isBarrier() {
        return this == WALL || this == START_FLOOR || this == OTHER
                || isMyHead() || isMyBody() || isEnemyHead() || isEnemyBody();
    }
}
