using System;
using System.Collections.Generic;
using System.Collections.Specialized;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Text;
using System.Threading;
using Gptnt.Mod.Fake;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Tests
{
    /// <summary>
    /// Unit tests of the plain protocol core: parsing, packing, colours, JSON, the main-thread
    /// queue, the game clock and the lifecycle. A tiny runner (no test framework to install):
    /// every public static void method of <see cref="Cases"/> is a test; the last line printed is
    /// "N passed, M failed" and the exit code is 1 if anything failed.
    /// </summary>
    public static class Runner
    {
        public static int Main(string[] args)
        {
            int passed = 0, failed = 0;
            foreach (var method in typeof(Cases).GetMethods(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static))
            {
                if (args.Length > 0 && Array.IndexOf(args, method.Name) < 0) continue;
                CultureInfo before = Thread.CurrentThread.CurrentCulture;
                try
                {
                    method.Invoke(null, null);
                    passed++;
                    Console.WriteLine("ok   " + method.Name);
                }
                catch (System.Reflection.TargetInvocationException err)
                {
                    failed++;
                    Console.WriteLine("FAIL " + method.Name + ": " + err.InnerException.Message);
                }
                finally
                {
                    Thread.CurrentThread.CurrentCulture = before;
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }
    }

    static class Check
    {
        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new Exception(what + ": expected <" + expected + ">, got <" + actual + ">");
        }

        public static void True(bool condition, string what)
        {
            if (!condition) throw new Exception(what);
        }

        public static RefusedException Refused(Callback action)
        {
            try { action(); }
            catch (RefusedException err) { return err; }
            throw new Exception("expected a RefusedException");
        }

        public static void Bytes(byte[] expected, byte[] actual, string what)
        {
            Equal(expected.Length, actual.Length, what + " length");
            for (int i = 0; i < expected.Length; i++) Equal(expected[i], actual[i], what + " byte " + i);
        }
    }

    public static partial class Cases
    {
        static NameValueCollection Mission()
        {
            return new NameValueCollection
            {
                { "seed", "42" }, { "timeLimit", "300" }, { "numStrikes", "3" }, { "needyTime", "60" },
                { "isFront", "TRUE" }, { "optWidgets", "3" }, { "components", "Wires, Keypad" },
                { "timeScale", "1.5" }, { "timeStepSize", "3000" },
            };
        }

        // ------------------------------------------------------------------ invariant parsing

        public static void ParsingIgnoresADecimalCommaCulture()
        {
            Thread.CurrentThread.CurrentCulture = new CultureInfo("de-DE");
            Check.Equal(0.5, Invariant.ParseDouble("0.5").Value, "0.5 under de-DE");
            Check.Equal(null, Invariant.ParseDouble("0,5"), "0,5 is not a number on the wire");
            Check.Equal("0.25", Invariant.Format(0.25), "format under de-DE");
            Check.Equal(0.0, MissionConfig.FromQuery(Mission()).TimeScale - 1.5, "timeScale under de-DE");
        }

        public static void ParsingRefusesJunk()
        {
            Check.Equal(null, Invariant.ParseDouble("abc"), "abc");
            Check.Equal(null, Invariant.ParseDouble(""), "empty");
            Check.Equal(null, Invariant.ParseDouble("NaN"), "NaN");
            Check.Equal(null, Invariant.ParseDouble("Infinity"), "Infinity");
            Check.Equal(null, Invariant.ParseInt("3.5"), "3.5 as int");
            Check.Equal(null, Invariant.ParseInt("1,000"), "thousands separator");
            Check.Equal(-5, Invariant.ParseInt(" -5 ").Value, "signed int");
            Check.Equal(0.001, Invariant.ParseDouble("1e-3").Value, "exponent");
            Check.Equal(true, Invariant.ParseBool("True").Value, "True");
            Check.Equal(null, Invariant.ParseBool("yes"), "yes");
        }

        // ------------------------------------------------------------------ mission config

        public static void MissionConfigParses()
        {
            MissionConfig config = MissionConfig.FromQuery(Mission());
            Check.Equal("42", config.Seed, "seed text");
            Check.Equal(42, config.SeedNumber, "seed");
            Check.Equal(true, config.IsFront, "isFront");
            Check.Equal(2, config.Components.Count, "components");
            Check.Equal("Keypad", config.Components[1], "trimmed component");
            Check.Equal(null, config.SessionId, "no sessionId");
        }

        static string RefusalFor(string key, string value)
        {
            NameValueCollection query = Mission();
            if (value == null) query.Remove(key);
            else query[key] = value;
            RefusedException err = Check.Refused(delegate { MissionConfig.FromQuery(query); });
            Check.Equal(400, err.Status, key + " status");
            return err.Message;
        }

        public static void MissionConfigRefusalsKeepTheModsSentences()
        {
            Check.True(RefusalFor("timeLimit", "-5").StartsWith(MissionConfig.EnterTimeLimit), "timeLimit");
            Check.True(RefusalFor("numStrikes", "0").StartsWith(MissionConfig.EnterStrikes), "numStrikes");
            Check.True(RefusalFor("optWidgets", "-1").StartsWith(MissionConfig.EnterWidgets), "optWidgets");
            Check.True(RefusalFor("needyTime", "900").StartsWith(MissionConfig.EnterNeedyTime), "needyTime");
            Check.True(RefusalFor("seed", "").StartsWith(MissionConfig.EnterSeed), "seed");
            Check.True(RefusalFor("components", "Wires,,Maze").StartsWith(MissionConfig.EnterComponents), "components");
            Check.True(RefusalFor("components", "Wires,Wires,Wires,Wires,Wires,Wires,Wires,Wires,Wires,Wires,Wires,Wires").StartsWith(MissionConfig.EnterComponents), "12 components");
            Check.True(RefusalFor("timeLimit", "soon").StartsWith("Error:"), "unparsable");
            Check.True(RefusalFor("numStrikes", null).StartsWith("Error:"), "missing");
            Check.True(RefusalFor("isFront", "maybe").StartsWith("Error:"), "bad bool");
            Check.True(RefusalFor("timeScale", "0").StartsWith("Error:"), "timeScale bound");
        }

        // ------------------------------------------------------------------ buffer layout

        public static void BufferHeaderIsThirteenLittleEndianBytes()
        {
            var frames = new List<byte[]> { Filled(2, 3, 1), Filled(2, 3, 2) };
            byte[] body = BufferCodec.Pack(frames, Filled(2, 3, 9), 2, 3);
            Check.Bytes(new byte[] { 1, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0 }, Slice(body, 0, 13), "header");
            Check.Equal(13 + 3 * 2 * 3 * 3, body.Length, "length");
            Check.Equal((byte)1, body[13], "oldest frame first");
            Check.Equal((byte)2, body[13 + 18], "newest frame next");
            Check.Equal((byte)9, body[body.Length - 1], "mask last");
            byte[] bare = BufferCodec.Pack(new List<byte[]>(), null, 640, 480);
            Check.Bytes(new byte[] { 0, 0, 0, 0, 0, 0xE0, 1, 0, 0, 0x80, 2, 0, 0 }, bare, "empty buffer");
        }

        public static void BufferRefusesAWrongSizedImage()
        {
            bool threw = false;
            try { BufferCodec.Pack(new List<byte[]> { new byte[5] }, null, 2, 3); }
            catch (ArgumentException) { threw = true; }
            Check.True(threw, "a 5-byte frame for 2x3 must be refused");
        }

        public static void FrameRingKeepsTheNewestSixteen()
        {
            var ring = new FrameRing();
            for (int i = 0; i < 20; i++) ring.Push(new[] { (byte)i });
            List<byte[]> all = ring.Snapshot(null);
            Check.Equal(16, all.Count, "capacity");
            Check.Equal((byte)4, all[0][0], "oldest kept");
            Check.Equal((byte)19, all[15][0], "newest");
            List<byte[]> last = ring.Snapshot(2);
            Check.Equal(2, last.Count, "last=2");
            Check.Equal((byte)18, last[0][0], "last=2 oldest first");
            Check.Equal(0, ring.Snapshot(0).Count, "last=0");
        }

        public static void SegmentationColoursAreHsvSteps()
        {
            byte[][] four = SegmentationPalette.Colors(4);
            Check.Bytes(new byte[] { 255, 0, 0 }, four[0], "4/0");
            Check.Bytes(new byte[] { 128, 255, 0 }, four[1], "4/1");
            Check.Bytes(new byte[] { 0, 255, 255 }, four[2], "4/2");
            Check.Bytes(new byte[] { 128, 0, 255 }, four[3], "4/3");
            byte[][] five = SegmentationPalette.Colors(5);
            Check.Bytes(new byte[] { 204, 255, 0 }, five[1], "5/1");
            Check.Bytes(new byte[] { 0, 255, 102 }, five[2], "5/2");
            Check.Bytes(new byte[] { 0, 102, 255 }, five[3], "5/3");
            Check.Bytes(new byte[] { 204, 0, 255 }, five[4], "5/4");
            byte[][] six = SegmentationPalette.Colors(6);
            Check.Bytes(new byte[] { 255, 255, 0 }, six[1], "6/1 yellow");
            Check.Bytes(new byte[] { 255, 0, 255 }, six[5], "6/5 magenta");
        }

        // ------------------------------------------------------------------ PNG

        public static void PngIsValidAndTopDown()
        {
            // 2×2, bottom-up input: bottom row red, top row blue.
            byte[] image = { 255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255 };
            byte[] png = Png.Encode(image, 2, 2);
            Check.Bytes(new byte[] { 137, 80, 78, 71, 13, 10, 26, 10 }, Slice(png, 0, 8), "signature");
            byte[] rows = Inflate(IdatOf(png));
            // Top row first (blue), Sub filter: first pixel as is, second minus the first.
            Check.Bytes(new byte[] { 1, 0, 0, 255, 0, 0, 0, 1, 255, 0, 0, 0, 0, 0 }, rows, "filtered rows");
        }

        public static void StoredDeflateBlocksRoundTrip()
        {
            var data = new byte[70000];
            for (int i = 0; i < data.Length; i++) data[i] = (byte)(i * 7);
            byte[] stored = Png.Stored(data);
            using (var inflate = new DeflateStream(new MemoryStream(stored), CompressionMode.Decompress))
                Check.Bytes(data, ReadAll(inflate), "stored blocks");
        }

        // ------------------------------------------------------------------ JSON

        public static void BombStateJsonUsesTheModsKeys()
        {
            var bomb = new BombState { Seed = 7, MaxStrikes = 3, IsLightOn = true, BombSide = "back" };
            bomb.Timer.SecondsRemaining = -1;
            bomb.Widgets.Add(new SerialNumberWidget { SerialNumber = "AB1CD2", Position = "right" });
            var wires = new WiresModule { Index = 2 };
            wires.Wires[1] = new Wire { Position = 1, Color = "red" };
            bomb.Modules.Add(wires);
            bomb.Modules.Add(new MemoryModule { DisplayNumber = "3", ButtonNumbers = new List<string> { "1", "2", "3", "4" } });
            bomb.Modules.Add(new WhosOnFirstModule { IsEmerged = false, Stage = 2 });
            bomb.Strikes.Add("Wires");
            string json = bomb.ToJson();
            string[] expected =
            {
                "\"seed\":7", "\"maxStrikes\":3", "\"isDetonated\":false", "\"isLightOn\":true",
                "\"bombSide\":\"back\"", "\"timerModule\":{\"secondsRemaining\":0,\"onFront\":true,\"index\":0,\"name\":\"Timer\"}",
                "{\"serialNumber\":\"AB1CD2\",\"position\":\"right\",\"name\":\"SerialNumber\"}",
                "\"wires\":[null,{\"position\":1,\"isCut\":false,\"color\":\"red\"},null,null,null,null]",
                "\"displayNumber\":\"3\",\"buttonNumbers\":[\"1\",\"2\",\"3\",\"4\"]",
                "\"displayWord\":null,\"buttonWords\":null,\"stage\":2,\"isEmerged\":false",
                "\"strikes\":[\"Wires\"]",
            };
            foreach (string part in expected) Check.True(json.Contains(part), "missing " + part + " in " + json);
        }

        public static void JsonEscapesAndStaysInvariant()
        {
            Thread.CurrentThread.CurrentCulture = new CultureInfo("fr-FR");
            string json = new JsonWriter().BeginObject().Field("a\"b", "x\\y\n\u0001").Field("f", 505.5)
                .Field("n", double.NaN).EndObject().ToString();
            Check.Equal("{\"a\\\"b\":\"x\\\\y\\n\\u0001\",\"f\":505.5,\"n\":null}", json, "json");
        }

        // ------------------------------------------------------------------ threading and time

        public static void MainThreadQueueRunsOnTheDrainingThread()
        {
            var queue = new MainThreadQueue();
            int mainId = 0;
            var main = new Thread(delegate ()
            {
                mainId = Thread.CurrentThread.ManagedThreadId;
                for (int i = 0; i < 200; i++) { queue.Drain(); Thread.Sleep(2); }
            });
            main.Start();
            int ranOn;
            bool done = queue.TryRun(delegate { return Thread.CurrentThread.ManagedThreadId; }, 2000, out ranOn);
            Check.True(done, "finished in time");
            Check.Equal(mainId, ranOn, "ran on the main thread");
            RefusedException err = Check.Refused(delegate
            {
                bool ignored;
                queue.TryRun<bool>(delegate { throw new RefusedException(400, "nope"); }, 2000, out ignored);
            });
            Check.Equal("nope", err.Message, "refusal crosses threads");
            main.Join();
        }

        public static void MainThreadQueueSkipsAbandonedWork()
        {
            var queue = new MainThreadQueue();
            bool ran = false;
            bool result;
            bool done = queue.TryRun(delegate { ran = true; return true; }, 50, out result);
            Check.True(!done, "nobody drained: timed out");
            queue.Drain();
            Check.True(!ran, "a timed-out job must not run late");
        }

        public static void GameClockFiresInOrderOnlyWhileTimeRuns()
        {
            var clock = new GameClock();
            var order = new List<string>();
            clock.After(0.5, delegate { order.Add("b"); });
            clock.After(0.25, delegate { order.Add("a"); });
            clock.WhenRunning(delegate { order.Add("run"); });
            clock.Advance(0);
            Check.Equal(0, order.Count, "paused: nothing fires");
            clock.Advance(0.25);
            Check.Equal("run,a", string.Join(",", order.ToArray()), "after 0.25");
            clock.Advance(0.25);
            Check.Equal("run,a,b", string.Join(",", order.ToArray()), "after 0.5");
        }

        // ------------------------------------------------------------------ lifecycle (§4.1)

        static void Run(FakeGame game, GameController controller, double seconds, double scale)
        {
            for (double t = 0; t < seconds - 1e-9; t += 1.0 / 64)
            {
                game.Advance(1.0 / 64, scale / 64);
                controller.Tick(scale / 64);
            }
        }

        public static void FirstLightsOnWaitsOneAndAHalfGameSeconds()
        {
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            Run(game, controller, 0.5, 1);
            Check.Equal(Lifecycle.Setup, controller.Lifecycle, "boot ends in Setup");
            Check.Equal("42", controller.StartMission(MissionConfig.FromQuery(Mission())), "start answers the seed");
            Check.Equal(Lifecycle.Transitioning, controller.Lifecycle, "starting");
            Run(game, controller, 0.5, 0);  // scene changes run on wall time, the game paused
            Check.Equal(Lifecycle.LightsOff, controller.Lifecycle, "in the dark");
            Run(game, controller, 5, 0);
            Check.Equal(Lifecycle.LightsOff, controller.Lifecycle, "paused: still dark");
            Check.Equal("Cannot get bomb state in LightsOff state", Check.Refused(delegate { controller.State(); }).Message, "state gate");
            Run(game, controller, FakeGame.DarkSeconds + 1.0, 1);  // lights on, 1 s into the 1.5 s
            Check.Equal(Lifecycle.LightsOff, controller.Lifecycle, "1.5 s not yet over");
            Check.True(controller.Act("left", 0, 0).StartsWith("flipped"), "actions allowed once the lights are on");
            Run(game, controller, 0.6, 1);
            Check.Equal(Lifecycle.LightsOn, controller.Lifecycle, "LightsOn after 1.5 s");
            Check.True(controller.State().Contains("\"bombSide\":\"front\""), "rotation reset at LightsOn");
            Check.True(controller.Ring.Count >= 1, "capturing");
            int frames = controller.Ring.Count;
            Run(game, controller, 1.0, 1);
            Check.Equal(Math.Min(16, frames + 4), controller.Ring.Count, "four frames per game second");
        }

        public static void CaptureKeepsFourFramesPerSecondAtALowFrameRate()
        {
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            Run(game, controller, 0.5, 1);
            controller.StartMission(MissionConfig.FromQuery(Mission()));
            Run(game, controller, 4, 1);
            Check.Equal(Lifecycle.LightsOn, controller.Lifecycle, "lit");
            controller.Ring.Clear();
            for (int frame = 0; frame < 30; frame++)  // 3 s at 10 frames per second
            {
                game.Advance(0.1, 0.1);
                controller.Tick(0.1);
            }
            int count = controller.Ring.Count;
            Check.True(count >= 11 && count <= 13, "3 s at 10 fps gave " + count + " frames, want 12 +- 1");
        }

        public static void TimestepWaitsForModulesToEmergeThenPauses()
        {
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            Run(game, controller, 0.5, 1);
            NameValueCollection mission = Mission();
            mission["components"] = "Memory";
            controller.StartMission(MissionConfig.FromQuery(mission));
            Run(game, controller, 0.5, 0);
            Run(game, controller, FakeGame.DarkSeconds + 0.25, 1);  // lit 0.25 s ago: buttons rising
            Check.True(controller.SetStepUnit(100).EndsWith("100"), "step unit");
            var signals = new StepSignals();
            controller.BeginStep(signals);
            double start = controller.Now;
            for (int i = 0; i < 640 && !signals.EmergedDone.WaitOne(0, false); i++)
            {
                game.Advance(1.0 / 64, game.TimeScale / 64);
                controller.Tick(game.TimeScale / 64);
            }
            Check.True(signals.RunDone.WaitOne(0, false) && signals.TransitionDone.WaitOne(0, false), "phases 1 and 2 done");
            Check.True(signals.EmergedDone.WaitOne(0, false), "phase 3 done");
            double ran = controller.Now - start;
            Check.True(ran >= FakeModule.EmergeSeconds - 0.25 - 0.02 && ran < FakeModule.EmergeSeconds, "ran " + ran + " s: until emerged, not just 0.1 s");
            Check.Equal(0f, game.TimeScale, "paused at the end");
            Check.True(!game.ReadBomb().Modules[0].IsEmerging, "buttons up when the step returns");
        }

        public static void ActionsAfterTheEndAreRefused()
        {
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            Run(game, controller, 0.5, 1);
            controller.StartMission(MissionConfig.FromQuery(Mission()));
            Run(game, controller, 4, 1);
            Check.Equal(Lifecycle.LightsOn, controller.Lifecycle, "lit");
            controller.Detonate();
            RefusedException err = Check.Refused(delegate { controller.Act("left", 0, 0); });
            Check.Equal("Cannot send action to the game in LightsOn state", err.Message, "after the end");
            Run(game, controller, 1, 1);
            Check.Equal(Lifecycle.PostGame, controller.Lifecycle, "results screen");
            Check.True(controller.State().Contains("\"isDetonated\":true"), "state still readable in PostGame");
        }

        public static void RouterIsCaseInsensitiveAndHonest()
        {
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            var router = new Router(controller, game, new MainThreadQueue());
            Check.Equal("Gameplay", router.Handle("GET", "/HEALTH/", new NameValueCollection()).BodyText, "path case");
            Reply unknown = router.Handle("GET", "/bombinfo", new NameValueCollection());
            Check.Equal(404, unknown.Status, "unknown route status");
            Check.Equal("Unknown route.", unknown.BodyText, "unknown route body");
            Reply preflight = router.Handle("OPTIONS", "/detonate", new NameValueCollection());
            Check.Equal(200, preflight.Status, "preflight");
            Check.Equal(0, preflight.Body.Length, "preflight body");
            Reply junk = router.Handle("GET", "/settimescale", new NameValueCollection { { "value", "1,5" } });
            Check.Equal(400, junk.Status, "decimal comma refused");
            Check.Equal("Could not parse request", junk.BodyText, "settimescale body");
            Reply missing = router.Handle("GET", "/setstepunit", new NameValueCollection());
            Check.True(missing.Status == 400 && missing.BodyText.StartsWith("Error:"), "setstepunit without value");
        }

        public static void HealthIsAnsweredWhileALongCallWaits()
        {
            // Nobody drains the main-thread queue, so /timestep hangs on the worker thread;
            // /health must still answer at once from the accept thread (shipped mod: blocked).
            var game = new FakeGame(64, 48);
            var controller = new GameController(game);
            var router = new Router(controller, game, new MainThreadQueue());
            HttpServer server = null;
            int port = 0;
            var rng = new Random();
            for (int attempt = 0; attempt < 20 && server == null; attempt++)
            {
                port = 20000 + rng.Next(40000);
                var candidate = new HttpServer(router, "localhost", port, null);
                try { candidate.Start(); server = candidate; }
                catch (System.Net.HttpListenerException) { }
            }
            Check.True(server != null, "no free port");
            try
            {
                var slow = new Thread(delegate ()
                {
                    try { new System.Net.WebClient().DownloadString("http://127.0.0.1:" + port + "/timestep"); }
                    catch (System.Net.WebException) { }
                });
                slow.IsBackground = true;
                slow.Start();
                Thread.Sleep(300);  // the worker thread is now waiting on the main thread
                var clock = System.Diagnostics.Stopwatch.StartNew();
                string health = new System.Net.WebClient().DownloadString("http://127.0.0.1:" + port + "/health");
                Check.Equal("Gameplay", health, "/health token");
                Check.True(clock.ElapsedMilliseconds < 2000, "/health took " + clock.ElapsedMilliseconds + " ms");
            }
            finally
            {
                server.Stop();
            }
        }

        // ------------------------------------------------------------------ helpers

        static byte[] Filled(int w, int h, byte value)
        {
            var image = new byte[w * h * 3];
            for (int i = 0; i < image.Length; i++) image[i] = value;
            return image;
        }

        static byte[] Slice(byte[] data, int offset, int count)
        {
            var part = new byte[count];
            Buffer.BlockCopy(data, offset, part, 0, count);
            return part;
        }

        static byte[] IdatOf(byte[] png)
        {
            int at = 8;
            while (at < png.Length)
            {
                int length = (png[at] << 24) | (png[at + 1] << 16) | (png[at + 2] << 8) | png[at + 3];
                string type = Encoding.ASCII.GetString(png, at + 4, 4);
                if (type == "IDAT") return Slice(png, at + 8 + 2, length - 2 - 4);  // strip zlib head and adler
                at += 12 + length;
            }
            throw new Exception("no IDAT chunk");
        }

        static byte[] Inflate(byte[] deflated)
        {
            using (var inflate = new DeflateStream(new MemoryStream(deflated), CompressionMode.Decompress))
                return ReadAll(inflate);
        }

        static byte[] ReadAll(Stream stream)
        {
            var output = new MemoryStream();
            var chunk = new byte[4096];
            int read;
            while ((read = stream.Read(chunk, 0, chunk.Length)) > 0) output.Write(chunk, 0, read);
            return output.ToArray();
        }
    }
}
