using System;
using System.Collections.Generic;
using System.Threading;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The mod's brain: the lifecycle state machine (docs/protocol.md §4.1), the frame ring, the
    /// bookkeeping of rotation, focus and strikes, and what each route does to the game.
    ///
    /// Everything except the members documented as thread-safe runs on the game's main thread:
    /// the routes reach it through <see cref="MainThreadQueue"/>, the per-frame pump calls
    /// <see cref="Tick"/>, and the adapter raises its events there. /health reads
    /// <see cref="Lifecycle"/> from the HTTP thread, so it never waits for the game.
    /// /action lives in the other half of this class, GameActions.cs.
    /// </summary>
    public sealed partial class GameController : IGameEvents
    {
        public const double FirstLightsOnDelay = 1.5;  // game seconds from lights on to LightsOn
        public const double RotateAfterZoomOut = 0.5;  // game seconds
        public const double EmergePoll = 0.1;  // game seconds between emergence checks

        public const string InvalidDirection = "invalid direction. Valid directions: left, right, up, down, flip";

        readonly IGameAdapter _game;
        readonly GameClock _clock = new GameClock();
        public readonly FrameRing Ring = new FrameRing();

        volatile Lifecycle _lifecycle = Lifecycle.Gameplay;
        volatile int _stepMs = 3000;
        volatile bool _rear;
        volatile bool _stepRunning;

        MissionConfig _mission;
        bool _missionStarted;  // actions allowed: set at the first lights-on, cleared at the end
        bool _stateEnabled;  // /state allowed: from first lights-on (+1.5 s) until Setup
        bool _firstLightsPending;
        bool _detonated, _solved;
        readonly List<string> _strikes = new List<string>();
        int _generation;  // bumped when a mission ends: stale timers of it do nothing
        int _stepGeneration;
        int _side, _tilt;  // side 0/90/180/270 (right turns +90), tilt +90 top / −90 bottom
        ITarget _lastPressed;
        bool _pauseAfterTransition;
        Random _rng = new Random(0);
        List<int> _magicOrder = new List<int>();

        public GameController(IGameAdapter game)
        {
            _game = game;
            game.Attach(this);
        }

        // ==================================================================== thread-safe reads

        /// <summary>The /health token. Safe from any thread.</summary>
        public Lifecycle Lifecycle { get { return _lifecycle; } }

        /// <summary>The /timestep length in game milliseconds. Safe from any thread.</summary>
        public int StepMs { get { return _stepMs; } }

        /// <summary>True while a /timestep runs game time (a host with a virtual clock may hurry).</summary>
        public bool StepRunning { get { return _stepRunning; } }

        /// <summary>Seconds of game time seen by the controller.</summary>
        public double Now { get { return _clock.Now; } }

        /// <summary>/debug: which face KTANE selects modules on. Safe from any thread.</summary>
        public string Debug()
        {
            return "Current face is " + (_rear ? "Rear" : "Front");
        }

        /// <summary>/setstepunit. Safe from any thread.</summary>
        public string SetStepUnit(int ms)
        {
            if (ms <= 0) throw new RefusedException(400, "Could not parse request");
            _stepMs = ms;
            return "Set timeStepSize to " + Invariant.Format(ms);
        }

        // ==================================================================== per frame

        /// <summary>Called once per rendered frame with the frame's scaled delta (game seconds).</summary>
        public void Tick(double scaledDelta)
        {
            _clock.Advance(scaledDelta);
            if (_pauseAfterTransition && _lifecycle != Lifecycle.Transitioning)
            {
                _pauseAfterTransition = false;
                _game.TimeScale = 0;
            }
        }

        // ==================================================================== game events

        public void SceneChanged(SceneState scene)
        {
            switch (scene)
            {
                case SceneState.Setup:
                    EndMission();
                    _stateEnabled = false;
                    _firstLightsPending = false;
                    Ring.Clear();
                    _mission = null;
                    _lifecycle = Lifecycle.Setup;
                    break;
                case SceneState.Gameplay: _lifecycle = Lifecycle.Gameplay; break;
                case SceneState.PostGame: _lifecycle = Lifecycle.PostGame; break;
                case SceneState.Transitioning: _lifecycle = Lifecycle.Transitioning; break;
                default: break;  // Unlock, Quitting: the token stays
            }
        }

        public void LightsChanged(bool on)
        {
            Lifecycle now = _lifecycle;
            if (now != Lifecycle.Gameplay && now != Lifecycle.LightsOn && now != Lifecycle.LightsOff) return;
            ResetRotation();
            if (!on)
            {
                _lifecycle = Lifecycle.LightsOff;
                return;
            }
            if (_stateEnabled)
            {
                _lifecycle = Lifecycle.LightsOn;
                return;
            }
            if (_firstLightsPending || _mission == null) return;
            // The first lights-on of a mission: actions are allowed at once, but /health says
            // LightsOn, /state answers and frames are captured only 1.5 s of game time later.
            _missionStarted = true;
            _firstLightsPending = true;
            int generation = _generation;
            _clock.After(FirstLightsOnDelay, delegate
            {
                if (generation == _generation && _firstLightsPending) FirstLightsOn();
            });
        }

        public void BombExploded()
        {
            _detonated = true;
            EndMission();
        }

        public void BombSolved()
        {
            _solved = true;
            EndMission();
        }

        public void Strike(string moduleName)
        {
            _strikes.Add(moduleName);
        }

        void FirstLightsOn()
        {
            _firstLightsPending = false;
            _stateEnabled = true;
            _lifecycle = Lifecycle.LightsOn;
            ResetRotation();
            _game.PickUpBomb();
            BombState bomb = _game.ReadBomb();
            _magicOrder = new List<int>();
            for (int i = 0; i < bomb.Modules.Count; i++) _magicOrder.Insert(_rng.Next(_magicOrder.Count + 1), i);
            Capture(_generation, _clock.Now);
        }

        /// <summary>
        /// One frame into the ring now, and again every 0.25 s of game time. The times are fixed
        /// from the first capture on (first + k × 0.25), not re-measured from each late frame, so a
        /// slow frame rate does not stretch the period (a 3 s step always adds 12 ± 1 frames).
        /// </summary>
        void Capture(int generation, double due)
        {
            if (generation != _generation) return;
            Ring.Push(_game.CaptureFrame());
            double next = due + FrameRing.Period;
            while (next <= _clock.Now) next += FrameRing.Period;  // a frame longer than a period
            _clock.At(next, delegate { Capture(generation, next); });
        }

        /// <summary>Solved, exploded or left: no more actions, no more frames (the ring stays).</summary>
        void EndMission()
        {
            _missionStarted = false;
            _lastPressed = null;
            _generation++;
        }

        void ResetRotation()
        {
            _side = 0;
            _tilt = 0;
            _rear = false;
        }

        // ==================================================================== routes (main thread)

        public string StartMission(MissionConfig config)
        {
            if (_lifecycle != Lifecycle.Setup)
                throw new RefusedException(400, "Cannot start a game from " + _lifecycle + " state");
            _game.StartMission(config);
            _mission = config;
            _stepMs = config.TimeStepSize;
            _game.TimeScale = (float)config.TimeScale;
            _strikes.Clear();
            _detonated = _solved = false;
            _stateEnabled = _missionStarted = _firstLightsPending = false;
            _generation++;
            Ring.Clear();
            _rng = new Random(config.SeedNumber);
            // The scene change follows within a frame or two; say so at once so that a client
            // polling /health right after this answer never sees a stale Setup.
            if (_lifecycle == Lifecycle.Setup) _lifecycle = Lifecycle.Transitioning;
            return config.Seed;
        }

        public string SetTimeScale(double value)
        {
            if (value < 0 || value > 100) throw new RefusedException(400, "Could not parse request");
            if (value == 0 && _lifecycle == Lifecycle.Transitioning)
            {
                _pauseAfterTransition = true;  // pausing a scene load would freeze it
            }
            else
            {
                _pauseAfterTransition = false;
                _game.TimeScale = (float)value;
            }
            return "Set timeScale to " + Invariant.Format(value);
        }

        /// <summary>
        /// /timestep, all three phases chained on the main thread so no game time slips between
        /// them: run stepMs of game time at speed 1, wait out a scene transition, poll every
        /// 0.1 s until no module is emerging, then pause. Each phase sets its event.
        /// </summary>
        public void BeginStep(StepSignals signals)
        {
            int generation = ++_stepGeneration;
            _stepRunning = true;
            _pauseAfterTransition = false;
            _game.TimeScale = 1;
            _clock.After(_stepMs / 1000.0, delegate
            {
                if (generation != _stepGeneration) return;
                signals.RunDone.Set();
                WaitTransition(generation, signals);
            });
        }

        /// <summary>A /timestep phase timed out: stop it and pause (the shipped mod left the game running).</summary>
        public void AbortStep()
        {
            _stepGeneration++;
            _stepRunning = false;
            _game.TimeScale = 0;
        }

        void WaitTransition(int generation, StepSignals signals)
        {
            if (generation != _stepGeneration) return;
            if (_lifecycle == Lifecycle.Transitioning)
            {
                _clock.After(EmergePoll, delegate { WaitTransition(generation, signals); });
                return;
            }
            signals.TransitionDone.Set();
            WaitEmerged(generation, signals);
        }

        void WaitEmerged(int generation, StepSignals signals)
        {
            if (generation != _stepGeneration) return;
            if (_mission != null && !_detonated && !_solved && Emerging())
            {
                _clock.After(EmergePoll, delegate { WaitEmerged(generation, signals); });
                return;
            }
            _stepRunning = false;
            _game.TimeScale = 0;
            signals.EmergedDone.Set();
        }

        bool Emerging()
        {
            foreach (ModuleState module in _game.ReadBomb().Modules)
                if (module != null && !module.IsSolved && module.IsEmerging) return true;
            return false;
        }

        public string State()
        {
            if (!_stateEnabled || _mission == null)
                throw new RefusedException(400, "Cannot get bomb state in " + _lifecycle + " state");
            BombState bomb = _game.ReadBomb();
            bomb.Seed = _mission.SeedNumber;
            bomb.MaxStrikes = _mission.NumStrikes;
            bomb.IsDetonated = _detonated;
            bomb.IsSolved = _solved;
            bomb.IsLightOn = _lifecycle == Lifecycle.LightsOn;
            bomb.BombSide = BombSide();
            bomb.Strikes = new List<string>(_strikes);
            return bomb.ToJson();
        }

        /// <summary>The segmentation mask of what is selectable right now; null when nothing is.</summary>
        public byte[] RenderMask()
        {
            if (_lifecycle != Lifecycle.LightsOn || !_stateEnabled) return null;
            IList<ITarget> targets = _game.ActiveTargets();
            if (targets.Count == 0) return null;
            return _game.RenderMask(targets, SegmentationPalette.Colors(targets.Count));
        }

        public string Reset()
        {
            if (_lifecycle != Lifecycle.Setup)
            {
                EndMission();
                _game.ReturnToSetup();
            }
            return "Nuh uh";
        }

        public string Detonate()
        {
            if (_lifecycle != Lifecycle.LightsOn)
                throw new RefusedException(400, "Cannot detonate bomb in " + _lifecycle + " state");
            _game.Detonate();
            return "Detonated bomb successfully";
        }

        public string Solve()
        {
            if (_lifecycle != Lifecycle.LightsOn)
                throw new RefusedException(400, "Cannot solve bomb in " + _lifecycle + " state");
            BombState bomb = _game.ReadBomb();
            for (int i = 0; i < bomb.Modules.Count; i++)
                if (!bomb.Modules[i].IsSolved) _game.ForceSolve(i);
            return "Solved bomb successfully";
        }

        /// <summary>/random: force-solve up to n random unsolved modules; " name" per module.</summary>
        public string SolveRandom(int n)
        {
            if (!_stateEnabled || !_missionStarted) return "";
            BombState bomb = _game.ReadBomb();
            var unsolved = new List<int>();
            for (int i = 0; i < bomb.Modules.Count; i++)
                if (!bomb.Modules[i].IsSolved) unsolved.Add(i);
            var text = new System.Text.StringBuilder();
            for (int k = 0; k < n && unsolved.Count > 0; k++)
            {
                int pick = _rng.Next(unsolved.Count);
                text.Append(' ').Append(_game.ForceSolve(unsolved[pick]));
                unsolved.RemoveAt(pick);
            }
            return text.ToString();
        }

        public string Modules()
        {
            var listing = new List<ModuleListing>(_game.ListModules());
            listing.Sort(delegate (ModuleListing a, ModuleListing b) { return string.CompareOrdinal(a.DisplayName, b.DisplayName); });
            var json = new JsonWriter().BeginArray();
            foreach (ModuleListing item in listing)
                json.BeginObject().Field("id", item.Id).Field("displayName", item.DisplayName)
                    .Field("isMod", item.IsMod).EndObject();
            return json.EndArray().ToString();
        }
    }

    /// <summary>The three /timestep phases, each signalled on the main thread when done.</summary>
    public sealed class StepSignals
    {
        public readonly ManualResetEvent RunDone = new ManualResetEvent(false);
        public readonly ManualResetEvent TransitionDone = new ManualResetEvent(false);
        public readonly ManualResetEvent EmergedDone = new ManualResetEvent(false);
    }
}
