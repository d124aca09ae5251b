using System;
using System.Collections.Generic;
using System.Collections.Specialized;
using System.Text;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The 15 routes of the shipped mod (docs/protocol.md §2) over a <see cref="GameController"/>.
    /// Runs on the HTTP worker thread: parses parameters here (invariantly), hands the game work
    /// to the main thread with a deadline, and packs large answers (/buffer) here again so the
    /// game never waits on encoding.
    ///
    /// Differences from the shipped mod, all kept additive for old clients: honest status codes
    /// with the same bodies (404 unknown route, 400 bad parameters and validation, 408/500 for
    /// time-outs), /buffer?last=N and /buffer?format=png (advertised in X-Gptnt-Extensions).
    /// </summary>
    public sealed class Router
    {
        public const string UnknownRoute = "Unknown route.";
        public const string ExtensionsHeader = "X-Gptnt-Extensions";
        /// <summary>Our additive extensions; buffer-png only where PNGs really get smaller.</summary>
        public static readonly string Extensions = Png.Compresses ? "buffer-last, buffer-png" : "buffer-last";

        public const int MainThreadTimeoutMs = 50000;  // actions, /state, /random
        public const int MaskTimeoutMs = 500;  // segmentation render
        public const int PhaseTimeoutMs = 10000;  // each /timestep phase

        delegate Reply Route(NameValueCollection query);

        readonly GameController _controller;
        readonly IGameAdapter _game;
        readonly MainThreadQueue _main;
        readonly Dictionary<string, Route> _routes;

        public Router(GameController controller, IGameAdapter game, MainThreadQueue main)
        {
            _controller = controller;
            _game = game;
            _main = main;
            _routes = new Dictionary<string, Route>
            {
                { "/health", delegate { return Reply.Ok(_controller.Lifecycle.ToString()); } },
                { "/startmission", StartMission },
                { "/settimescale", SetTimeScale },
                { "/setstepunit", delegate (NameValueCollection q) { return Reply.Ok(_controller.SetStepUnit(RequiredInt(q, "value"))); } },
                { "/timestep", Timestep },
                { "/action", Act },
                { "/state", State },
                { "/buffer", Buffer },
                { "/old-buffer", OldBuffer },
                { "/reset", delegate { return Reply.Ok(OnMain(delegate { return _controller.Reset(); })); } },
                { "/detonate", delegate { return Reply.Ok(OnMain(delegate { return _controller.Detonate(); })); } },
                { "/solve", delegate { return Reply.Ok(OnMain(delegate { return _controller.Solve(); })); } },
                { "/random", SolveRandom },
                { "/modules", delegate { return new Reply(200, Encoding.UTF8.GetBytes(OnMain(delegate { return _controller.Modules(); })), Reply.Json); } },
                { "/debug", delegate { return Reply.Ok(_controller.Debug()); } },
            };
        }

        /// <summary>The mod lower-cases the path before lookup; a trailing slash is tolerated.</summary>
        public static string Normalise(string path)
        {
            string lowered = (path ?? "/").ToLowerInvariant().TrimEnd('/');
            return lowered.Length == 0 ? "/" : lowered;
        }

        public bool Knows(string path)
        {
            return _routes.ContainsKey(Normalise(path));
        }

        /// <summary>Answer one request. Never throws: every failure becomes a status and a body.</summary>
        public Reply Handle(string method, string path, NameValueCollection query)
        {
            Route route;
            if (!_routes.TryGetValue(Normalise(path), out route))
                return Reply.WithStatus(404, UnknownRoute);
            // A CORS preflight gets an empty 200 without running the handler (the shipped mod
            // ran it and dropped the body: a preflight of /detonate detonated).
            if (string.Equals(method, "OPTIONS", StringComparison.OrdinalIgnoreCase))
                return new Reply(200, new byte[0], null);
            try
            {
                return route(query);
            }
            catch (RefusedException refused)
            {
                return Reply.WithStatus(refused.Status, refused.Message);
            }
            catch (Exception err)
            {
                Exception cause = err is TargetFailedException && err.InnerException != null ? err.InnerException : err;
                return Reply.WithStatus(500, "Error: " + cause.GetType().Name + ": " + cause.Message);
            }
        }

        // ------------------------------------------------------------------ helpers

        T OnMain<T>(Work<T> work)
        {
            return OnMain(work, MainThreadTimeoutMs, 408,
                "Error: the game's main thread did not answer within " + MainThreadTimeoutMs / 1000 + " s");
        }

        T OnMain<T>(Work<T> work, int timeoutMs, int status, string timeoutBody)
        {
            T result;
            if (!_main.TryRun(work, timeoutMs, out result)) throw new RefusedException(status, timeoutBody);
            return result;
        }

        static string Required(NameValueCollection query, string key)
        {
            string value = query[key];
            if (value == null)
                throw new RefusedException(400, "Error: query parameter '" + key + "' is missing; add ?" + key + "=<value>");
            return value;
        }

        static int RequiredInt(NameValueCollection query, string key)
        {
            string text = Required(query, key);
            int? value = Invariant.ParseInt(text);
            if (value == null)
                throw new RefusedException(400, "Error: query parameter '" + key + "'='" + text + "' is not an integer; send e.g. " + key + "=3000");
            return value.Value;
        }

        /// <summary>x_pos/y_pos: absent reads as 0 (as in the shipped mod); junk or outside [0, 1] is a 400.</summary>
        static double Coordinate(NameValueCollection query, string key)
        {
            string text = query[key];
            if (text == null) return 0;
            double? value = Invariant.ParseDouble(text);
            if (value == null || value.Value < 0 || value.Value > 1)
                throw new RefusedException(400, "Could not parse x and y coordinates: " + key + "='" + text
                    + "' must be a number in [0, 1] (top-left origin)");
            return value.Value;
        }

        // ------------------------------------------------------------------ routes

        Reply StartMission(NameValueCollection query)
        {
            MissionConfig config = MissionConfig.FromQuery(query);
            return Reply.Ok(OnMain(delegate { return _controller.StartMission(config); }));
        }

        Reply SetTimeScale(NameValueCollection query)
        {
            double? value = Invariant.ParseDouble(query["value"]);
            if (value == null) throw new RefusedException(400, "Could not parse request");
            return Reply.Ok(OnMain(delegate { return _controller.SetTimeScale(value.Value); }));
        }

        Reply Timestep(NameValueCollection query)
        {
            var signals = new StepSignals();
            int ms = _controller.StepMs;
            OnMain(delegate { _controller.BeginStep(signals); return true; });
            WaitPhase(signals.RunDone, "Time out while waiting " + ms + " in-game milliseconds");
            WaitPhase(signals.TransitionDone, "Time out while waiting for game to exit transitioning");
            WaitPhase(signals.EmergedDone, "Time out while waiting for module elements to emerge");
            return Reply.Ok("Paused after " + ms + " in-game milliseconds (and modules emerged)");
        }

        void WaitPhase(System.Threading.ManualResetEvent done, string timeoutBody)
        {
            if (done.WaitOne(PhaseTimeoutMs, false)) return;
            _main.Post(delegate { _controller.AbortStep(); });
            throw new RefusedException(408, timeoutBody);
        }

        Reply Act(NameValueCollection query)
        {
            string action = Required(query, "action");
            double x = Coordinate(query, "x_pos");
            double y = Coordinate(query, "y_pos");
            return Reply.Ok(OnMain(delegate { return _controller.Act(action, x, y); }));
        }

        Reply State(NameValueCollection query)
        {
            string json = OnMain(delegate { return _controller.State(); }, MainThreadTimeoutMs, 500,
                "Could not serialize bomb state");
            return new Reply(200, Encoding.UTF8.GetBytes(json), Reply.Json);
        }

        sealed class Snapshot
        {
            public List<byte[]> Frames;
            public byte[] Mask;
            public int Width, Height;
        }

        /// <summary>Frames and mask taken in the same main-thread frame, so they describe one scene.</summary>
        Snapshot Take(int? last)
        {
            return OnMain(delegate
            {
                return new Snapshot
                {
                    Frames = _controller.Ring.Snapshot(last),
                    Mask = _controller.RenderMask(),
                    Width = _game.FrameWidth,
                    Height = _game.FrameHeight,
                };
            }, MaskTimeoutMs, 408, "");
        }

        Reply Buffer(NameValueCollection query)
        {
            int? last = null;
            if (query["last"] != null)
            {
                last = RequiredInt(query, "last");
                if (last.Value < 0) throw new RefusedException(400, "Error: last=" + last.Value + " must be >= 0; send e.g. last=2");
            }
            string format = (query["format"] ?? "raw").ToLowerInvariant();
            if (format != "raw" && format != "png")
                throw new RefusedException(400, "Error: format='" + format + "' is unknown; send format=raw or format=png");
            Snapshot shot = Take(last);
            byte[] body = format == "png"
                ? PngContainer.Pack(shot.Frames, shot.Mask, shot.Width, shot.Height)
                : BufferCodec.Pack(shot.Frames, shot.Mask, shot.Width, shot.Height);
            return new Reply(200, body, Reply.Binary);
        }

        /// <summary>Legacy JSON form; Content-Type image/png as the shipped mod (oddly) sends it.</summary>
        Reply OldBuffer(NameValueCollection query)
        {
            Snapshot shot = Take(null);
            var json = new JsonWriter().BeginObject().Key("frames").BeginArray();
            foreach (byte[] frame in shot.Frames)
                json.String(Convert.ToBase64String(Png.Encode(frame, shot.Width, shot.Height)));
            json.EndArray();
            json.Field("segmentation", shot.Mask == null ? "" : Convert.ToBase64String(Png.Encode(shot.Mask, shot.Width, shot.Height)));
            return new Reply(200, Encoding.UTF8.GetBytes(json.EndObject().ToString()), "image/png");
        }

        Reply SolveRandom(NameValueCollection query)
        {
            int n = RequiredInt(query, "value");
            return Reply.Ok(OnMain(delegate { return _controller.SolveRandom(n); }));
        }
    }
}
