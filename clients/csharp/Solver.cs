using System;
using System.Collections.Generic;
using System.Linq;

/// <summary>
/// The bot's brain: one command per board. Start modifying here.
///
/// The strategy is deliberately simple: among the moves that do not hit a
/// barrier (and, if possible, do not eat a stone), take the one that brings
/// the head closest to the nearest apple or gold. The snake never turns back
/// on itself: the server would ignore a 180-degree turn anyway.
/// </summary>
public sealed class Solver
{
    private static readonly Direction[] Moves =
        { Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT };

    /// <summary>The command to send for this board.</summary>
    public string Choose(Board board)
    {
        var maybeHead = board.GetMyHead();
        if (!maybeHead.HasValue)
        {
            // Dead and not shown, or not seated yet: the answer does not
            // matter, but the server waits for one before the next board.
            return Direction.RIGHT.ToString();
        }
        var head = maybeHead.Value;
        var facing = Directions.OfHead(board.GetAt(head));
        var targets = board.GetApples().Concat(board.GetGold()).ToList();

        var safe = new List<Direction>();
        var risky = new List<Direction>();
        foreach (var d in Moves)
        {
            var next = head.Shift(d);
            if ((facing.HasValue && d == facing.Value.Reverse()) || board.IsBarrier(next))
            {
                continue;
            }
            (board.GetAt(next) == Element.STONE ? risky : safe).Add(d);
        }

        var options = safe.Count > 0 ? safe : risky;
        if (options.Count == 0)
        {
            // Every way is blocked: keep going and hope.
            return (facing ?? Direction.RIGHT).ToString();
        }
        if (targets.Count == 0)
        {
            return options[0].ToString();
        }
        return options
            .OrderBy(d => targets.Min(t => head.Shift(d).Distance(t)))
            .First()
            .ToString();
    }
}
