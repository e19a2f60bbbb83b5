using System;
using System.IO;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

/// <summary>
/// A SnakeBattle bot: connects to the server, answers every board with one
/// command, and reconnects when the connection drops.
///
///     mono client.exe [PLAYER_PAGE_URL] [--ticks N]
///
/// Without a URL argument it uses Url below. --ticks N (or the environment
/// variable SNAKEPIT_TICKS) stops after N boards.
/// </summary>
public static class Program
{
    /// <summary>The address of your player page, copied from the browser as it is.</summary>
    private const string Url = "SNAKEPIT_PLAYER_URL";

    private const int ReconnectDelayMs = 2000;

    /// <summary>
    /// The bot socket's address, derived from the player page's address:
    /// http://HOST/codenjoy-contest/board/player/ID?code=CODE
    /// becomes ws://HOST/codenjoy-contest/ws?user=ID&amp;code=CODE
    /// </summary>
    public static string WsUrl(string pageUrl)
    {
        var url = pageUrl.Trim();
        if (url.StartsWith("http", StringComparison.Ordinal))
        {
            url = "ws" + url.Substring("http".Length);
        }
        return ReplaceFirst(ReplaceFirst(url, "board/player/", "ws?user="), "?code=", "&code=");
    }

    private static string ReplaceFirst(string text, string what, string with)
    {
        int at = text.IndexOf(what, StringComparison.Ordinal);
        return at < 0 ? text : text.Substring(0, at) + with + text.Substring(at + what.Length);
    }

    public static int Main(string[] args)
    {
        var url = Url;
        var ticks = Environment.GetEnvironmentVariable("SNAKEPIT_TICKS");
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--ticks" && i + 1 < args.Length)
            {
                ticks = args[++i];
            }
            else if (args[i].StartsWith("--ticks=", StringComparison.Ordinal))
            {
                ticks = args[i].Substring("--ticks=".Length);
            }
            else
            {
                url = args[i];
            }
        }
        if (!url.StartsWith("http", StringComparison.Ordinal))
        {
            Console.Error.WriteLine("Pass your player page URL (http://.../board/player/ID?code=CODE) "
                + "as the first argument, or paste it into Url in Program.cs.");
            return 2;
        }
        int? limit = string.IsNullOrEmpty(ticks) ? (int?)null : int.Parse(ticks);
        Play(WsUrl(url), limit).GetAwaiter().GetResult();
        return 0;
    }

    /// <summary>Plays until the tick limit is reached (forever without one).</summary>
    private static async Task Play(string url, int? ticks)
    {
        var solver = new Solver();
        int answered = 0;
        Func<bool> done = () => ticks.HasValue && answered >= ticks.Value;
        while (!done())
        {
            Console.WriteLine("connecting to " + url);
            try
            {
                using (var ws = new ClientWebSocket())
                {
                    await ws.ConnectAsync(new Uri(url), CancellationToken.None);
                    Console.WriteLine("connected");
                    while (!done())
                    {
                        var text = await Receive(ws);
                        if (text == null)
                        {
                            break;
                        }
                        if (!text.StartsWith("board=", StringComparison.Ordinal))
                        {
                            continue;
                        }
                        var board = new Board(text);
                        var command = solver.Choose(board);
                        var bytes = Encoding.UTF8.GetBytes(command);
                        await ws.SendAsync(new ArraySegment<byte>(bytes), WebSocketMessageType.Text, true, CancellationToken.None);
                        answered++;
                        var head = board.GetMyHead();
                        Console.WriteLine("board " + answered + ": head " + (head.HasValue ? head.Value.ToString() : "none") + " -> " + command);
                    }
                    if (done())
                    {
                        // Waiting for the server's reply to the close is not
                        // worth hanging over. A plain wait, not Task.Delay:
                        // Mono can crash at exit while a timer is pending.
                        ws.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, "done", CancellationToken.None).Wait(1000);
                        break;
                    }
                    Console.WriteLine("disconnected: " + ws.CloseStatus + " " + ws.CloseStatusDescription);
                }
            }
            catch (Exception e)
            {
                var cause = e.InnerException ?? e;
                Console.WriteLine("disconnected: " + cause.Message);
            }
            Console.WriteLine("retrying in " + ReconnectDelayMs / 1000 + " s");
            await Task.Delay(ReconnectDelayMs);
        }
        Console.WriteLine("done: answered " + answered + " boards");
    }

    /// <summary>The next text message, or null when the server closed.</summary>
    private static async Task<string> Receive(ClientWebSocket ws)
    {
        var buffer = new ArraySegment<byte>(new byte[8192]);
        using (var message = new MemoryStream())
        {
            while (true)
            {
                var part = await ws.ReceiveAsync(buffer, CancellationToken.None);
                if (part.MessageType == WebSocketMessageType.Close)
                {
                    return null;
                }
                message.Write(buffer.Array, buffer.Offset, part.Count);
                if (part.EndOfMessage)
                {
                    return part.MessageType == WebSocketMessageType.Text
                        ? Encoding.UTF8.GetString(message.ToArray())
                        : "";
                }
            }
        }
    }
}
