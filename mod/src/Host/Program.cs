using System;
using System.Diagnostics;
using System.Globalization;
using System.Threading;
using Gptnt.Mod.Fake;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Host
{
    /// <summary>
    /// gptnt-mod-host.exe: the mod's protocol core over the fake game, under plain Mono, so the
    /// contract tests can run against the C# implementation without KTANE.
    ///
    /// The process's main thread plays Unity's main thread: it drains the main-thread queue and
    /// ticks the game each iteration. Game time follows the wall clock × time scale, except while
    /// a /timestep runs: then it advances in exact 1/64 s ticks without waiting (virtual time),
    /// so a 3000 ms step takes milliseconds, as in the simulator.
    ///
    /// Environment: port (default 8085), GAME_WIDTH × GAME_HEIGHT (default 640 × 480),
    /// GPTNT_MOD_BIND (listener host, default localhost; * for every interface).
    /// </summary>
    public static class Program
    {
        const double VirtualTick = 1.0 / 64.0;  // exact in binary: 16 ticks per frame period

        public static int Main(string[] args)
        {
            Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
            int port, width, height;
            try
            {
                port = HttpServer.PortFromEnvironment();
                width = Dimension("GAME_WIDTH", 640);
                height = Dimension("GAME_HEIGHT", 480);
            }
            catch (ArgumentException err)
            {
                Console.Error.WriteLine("error: " + err.Message);
                return 2;
            }
            string host = Environment.GetEnvironmentVariable("GPTNT_MOD_BIND");
            if (string.IsNullOrEmpty(host)) host = "localhost";

            var game = new FakeGame(width, height);
            var queue = new MainThreadQueue();
            var controller = new GameController(game);
            var server = new HttpServer(new Router(controller, game, queue), host, port, Log);
            try { server.Start(); }
            catch (Exception err)
            {
                Console.Error.WriteLine("error: cannot listen on " + server.Prefix + ": " + err.Message);
                return 1;
            }

            var clock = Stopwatch.StartNew();
            double last = 0;
            while (true)
            {
                queue.Drain();
                double now = clock.Elapsed.TotalSeconds;
                double wall = now - last;
                last = now;
                double scale = game.TimeScale;
                bool hurry = controller.StepRunning && scale > 0;
                double gameDelta = hurry ? VirtualTick : wall * scale;
                game.Advance(wall, gameDelta);
                controller.Tick(gameDelta);
                if (!hurry) Thread.Sleep(4);
            }
        }

        static int Dimension(string name, int fallback)
        {
            string text = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(text)) return fallback;
            int? value = Invariant.ParseInt(text);
            if (value == null || value.Value < 16 || value.Value > 8192)
                throw new ArgumentException("env " + name + "='" + text + "' must be a pixel count from 16 to 8192");
            return value.Value;
        }

        static void Log(string message)
        {
            Console.Error.WriteLine(DateTime.UtcNow.ToString("HH:mm:ss.fff", CultureInfo.InvariantCulture) + " " + message);
        }
    }
}
