using System;
using System.Collections.Generic;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Fake
{
    /// <summary>
    /// A small deterministic stand-in for KTANE behind <see cref="IGameAdapter"/>, so the
    /// protocol core runs and is tested under plain Mono. It has the scene flow of the real game
    /// (Gameplay at boot → Setup; start → Transitioning → Gameplay → lights off → lights on once
    /// game time runs → … → PostGame), a bomb clock running on game time, strikes, explosion and
    /// defusal, a 2×3 face per side, zoom, rotations, and flat synthetic frames and masks whose
    /// regions are exactly the click targets.
    ///
    /// Driven by the host's pump: <see cref="Advance"/> with the frame's wall and game deltas.
    /// </summary>
    public sealed class FakeGame : IGameAdapter
    {
        public const double SceneSeconds = 0.2;  // wall seconds per scene change
        public const double DarkSeconds = 2.0;  // game seconds in the dark before the lights come on (a slow client still pauses in time)
        public const double PostGameDelay = 0.5;  // game seconds from the end to the results screen

        sealed class Target : ITarget
        {
            public string Name { get; set; }
            public bool IsModule { get; set; }
            public int Module;
            public string Element;
        }

        sealed class Region
        {
            public Target Target;
            public int X, Y, W, H;  // top-down pixels
            public byte[] Color;
        }

        sealed class Pending
        {
            public double Due;
            public Callback Run;
        }

        readonly int _width, _height;
        IGameEvents _events;
        readonly List<Pending> _wall = new List<Pending>();
        readonly List<Pending> _game = new List<Pending>();
        double _wallNow, _gameNow;

        MissionConfig _mission;
        List<FakeModule> _modules = new List<FakeModule>();
        List<WidgetState> _widgets = new List<WidgetState>();
        int _timerSlot;
        bool _dark, _lit, _ended;
        double _secondsRemaining;
        int _strikeCount;
        int _focused = -1;
        int _tilt, _side;

        public FakeGame(int width, int height)
        {
            _width = width;
            _height = height;
            TimeScale = 1;
        }

        public void Attach(IGameEvents events)
        {
            _events = events;
            AtWall(SceneSeconds, delegate { _events.SceneChanged(SceneState.Setup); });
        }

        public int FrameWidth { get { return _width; } }
        public int FrameHeight { get { return _height; } }
        public float TimeScale { get; set; }

        // ------------------------------------------------------------------ time

        /// <summary>One pump iteration: wall seconds passed and game seconds passed (scaled).</summary>
        public void Advance(double wallDelta, double gameDelta)
        {
            _wallNow += wallDelta;
            Fire(_wall, _wallNow);
            if (gameDelta <= 0) return;
            _gameNow += gameDelta;
            if (_dark && !_lit && _mission != null)
            {
                _dark = false;
                AtGame(DarkSeconds, delegate
                {
                    _lit = true;
                    foreach (FakeModule module in _modules) module.EmergedAt = _gameNow + FakeModule.EmergeSeconds;
                    _events.LightsChanged(true);
                });
            }
            if (_lit && !_ended)
            {
                _secondsRemaining -= gameDelta;
                if (_secondsRemaining <= 0)
                {
                    _secondsRemaining = 0;
                    Explode();
                }
            }
            Fire(_game, _gameNow);
        }

        void AtWall(double seconds, Callback run) { _wall.Add(new Pending { Due = _wallNow + seconds, Run = run }); }
        void AtGame(double seconds, Callback run) { _game.Add(new Pending { Due = _gameNow + seconds, Run = run }); }

        static void Fire(List<Pending> pending, double now)
        {
            while (true)
            {
                Pending due = pending.Find(delegate (Pending p) { return p.Due <= now; });
                if (due == null) return;
                pending.Remove(due);
                due.Run();
            }
        }

        // ------------------------------------------------------------------ scenes

        public void StartMission(MissionConfig mission)
        {
            var rng = new Random(mission.SeedNumber);
            var kinds = new List<string>();
            foreach (string name in mission.Components)
            {
                if (Array.IndexOf(MissionConfig.NeedyModules, name) >= 0) continue;  // never reported
                if (Array.IndexOf(MissionConfig.VanillaModules, name) < 0)
                    throw new RefusedException(400, MissionConfig.EnterComponents
                        + " (the fake game has no module '" + name + "')");
                kinds.Add(name);
            }
            // Slots 0–5 front, 6–11 back; the timer takes one front slot.
            var slots = new List<int>();
            for (int i = 0; i < 12; i++) slots.Add(i);
            Shuffle(rng, slots);
            _timerSlot = slots.Find(delegate (int s) { return s < 6; });
            slots.Remove(_timerSlot);
            if (mission.IsFront) slots.Sort(delegate (int a, int b) { return (a < 6 ? 0 : 1) - (b < 6 ? 0 : 1); });
            _modules = new List<FakeModule>();
            for (int i = 0; i < kinds.Count; i++)
                _modules.Add(new FakeModule(kinds[i], slots[i] < 6, slots[i] % 6, rng));
            _widgets = Widgets(rng, mission.OptWidgets);
            _mission = mission;
            _secondsRemaining = mission.TimeLimit;
            _strikeCount = 0;
            _dark = _lit = _ended = false;
            _focused = -1;
            _tilt = _side = 0;
            _wall.Clear();
            _game.Clear();
            _events.SceneChanged(SceneState.Transitioning);
            AtWall(SceneSeconds, delegate { _events.SceneChanged(SceneState.Gameplay); });
            AtWall(2 * SceneSeconds, delegate { _dark = true; _events.LightsChanged(false); });
        }

        public void ReturnToSetup()
        {
            _wall.Clear();
            _game.Clear();
            _mission = null;
            _modules = new List<FakeModule>();
            _dark = _lit = false;
            _ended = true;
            _events.SceneChanged(SceneState.Transitioning);
            AtWall(SceneSeconds, delegate { _events.SceneChanged(SceneState.Setup); });
        }

        static List<WidgetState> Widgets(Random rng, int optional)
        {
            const string letters = "ABCDEFGHIJKLMNPQRSTUVWXZ";  // no O or Y, as on the game's serials
            const string digits = "0123456789";
            string[] sides = { "top", "bottom", "left", "right" };
            var serial = new char[6];
            for (int i = 0; i < 6; i++)
                serial[i] = i == 5 || i == 2 ? digits[rng.Next(10)] : (rng.Next(2) == 0 ? letters[rng.Next(letters.Length)] : digits[rng.Next(10)]);
            var widgets = new List<WidgetState> { new SerialNumberWidget { SerialNumber = new string(serial), Position = sides[rng.Next(4)] } };
            string[] labels = { "SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK" };
            string[] ports = { "DVI-D", "Parallel", "PS/2", "RJ-45", "Serial", "Stereo RCA" };
            for (int i = 0; i < optional; i++)
            {
                string side = sides[rng.Next(4)];
                switch (rng.Next(3))
                {
                    case 0:
                        bool d = rng.Next(2) == 0;
                        widgets.Add(new BatteryWidget { Position = side, BatteryType = d ? "D" : "AA", BatteriesCount = d ? 1 : 2 });
                        break;
                    case 1:
                        widgets.Add(new IndicatorWidget { Position = side, Label = labels[rng.Next(labels.Length)], LightActivated = rng.Next(2) == 0 });
                        break;
                    default:
                        var plate = new PortWidget { Position = side };
                        foreach (string port in ports) if (rng.Next(3) == 0) plate.PortType.Add(port);
                        widgets.Add(plate);
                        break;
                }
            }
            return widgets;
        }

        // ------------------------------------------------------------------ the bomb

        void Strike(FakeModule module)
        {
            _events.Strike(module.Kind);
            if (++_strikeCount >= _mission.NumStrikes) Explode();
        }

        void Explode()
        {
            if (_ended) return;
            _ended = true;
            _events.BombExploded();
            AtGame(PostGameDelay, delegate { _events.SceneChanged(SceneState.PostGame); });
        }

        void CheckSolved()
        {
            if (_ended || _modules.Count == 0 || !_modules.TrueForAll(delegate (FakeModule m) { return m.Solved; })) return;
            _ended = true;
            _events.BombSolved();
            AtGame(PostGameDelay, delegate { _events.SceneChanged(SceneState.PostGame); });
        }

        public void PickUpBomb()
        {
            _tilt = _side = 0;
        }

        public void Detonate() { Explode(); }

        public string ForceSolve(int moduleIndex)
        {
            FakeModule module = _modules[moduleIndex];
            module.Solved = true;
            CheckSolved();
            return module.Kind;
        }

        public BombState ReadBomb()
        {
            var bomb = new BombState();
            bomb.Timer.SecondsRemaining = _secondsRemaining;
            bomb.Timer.OnFront = _timerSlot < 6;
            bomb.Timer.Index = _timerSlot % 6;
            bomb.Widgets = new List<WidgetState>(_widgets);
            for (int i = 0; i < _modules.Count; i++) bomb.Modules.Add(_modules[i].Export(i == _focused, _gameNow));
            return bomb;
        }

        public IList<ModuleListing> ListModules()
        {
            string[,] names =
            {
                { "BigButton", "The Button" }, { "Venn", "Complicated Wires" }, { "Keypad", "Keypad" },
                { "Maze", "Maze" }, { "Memory", "Memory" }, { "Morse", "Morse Code" }, { "Password", "Password" },
                { "Simon", "Simon Says" }, { "WhosOnFirst", "Who's on First" }, { "WireSequence", "Wire Sequence" },
                { "Wires", "Wires" },
            };
            var listing = new List<ModuleListing>();
            for (int i = 0; i < names.GetLength(0); i++)
                listing.Add(new ModuleListing { Id = names[i, 0], DisplayName = names[i, 1], IsMod = false });
            return listing;
        }

        // ------------------------------------------------------------------ camera and input

        public string FocusedModule { get { return _focused < 0 ? null : _modules[_focused].Kind; } }

        public void ZoomIn(ITarget module)
        {
            var target = (Target)module;
            if (FacingFront() == _modules[target.Module].OnFront && Upright()) _focused = target.Module;
        }

        public void ZoomOut() { _focused = -1; }

        public void Press(ITarget element)
        {
            var target = (Target)element;
            FakeModule module = _modules[target.Module];
            if (module.Press(target.Element)) Strike(module);
            CheckSolved();
        }

        public void Release(ITarget element)
        {
            var target = (Target)element;
            FakeModule module = _modules[target.Module];
            if (module.Release(target.Element)) Strike(module);
            CheckSolved();
        }

        public void SetBombRotation(int tiltDegrees, int sideDegrees)
        {
            _tilt = tiltDegrees;
            _side = sideDegrees;
        }

        public void SelectFace(bool rear) { }

        bool Upright() { return _tilt == 0 && (_side == 0 || _side == 180); }
        bool FacingFront() { return _side == 0; }

        public ITarget ModuleTarget(int moduleIndex)
        {
            return new Target { Name = _modules[moduleIndex].Kind, IsModule = true, Module = moduleIndex };
        }

        public ITarget HitTest(double x, double yFromBottom)
        {
            int px = Math.Min(_width - 1, (int)(x * _width));
            int py = Math.Min(_height - 1, (int)((1.0 - yFromBottom) * _height));
            foreach (Region region in Regions())
                if (px >= region.X && px < region.X + region.W && py >= region.Y && py < region.Y + region.H)
                    return region.Target;
            return null;
        }

        public IList<ITarget> ActiveTargets()
        {
            var targets = new List<ITarget>();
            foreach (Region region in Regions()) targets.Add(region.Target);
            return targets;
        }

        /// <summary>What can be clicked in the current view, in segmentation order.</summary>
        List<Region> Regions()
        {
            var regions = new List<Region>();
            if (_mission == null || !_lit) return regions;
            if (_focused >= 0)
            {
                FakeModule module = _modules[_focused];
                int n = module.Elements.Count;
                int columns = Math.Min(n, 4);
                int rows = (n + columns - 1) / columns;
                int left = _width / 5, top = _height / 6, width = _width * 3 / 5, height = _height * 2 / 3;
                for (int i = 0; i < n; i++)
                {
                    int cw = width / columns, ch = height / rows;
                    regions.Add(new Region
                    {
                        Target = new Target { Name = module.Kind + "/" + module.Elements[i], Module = _focused, Element = module.Elements[i] },
                        X = left + (i % columns) * cw + cw / 6, Y = top + (i / columns) * ch + ch / 6,
                        W = cw * 2 / 3, H = ch * 2 / 3, Color = ElementColor(module, i),
                    });
                }
                return regions;
            }
            if (!Upright()) return regions;
            for (int i = 0; i < _modules.Count; i++)
            {
                FakeModule module = _modules[i];
                if (module.OnFront != FacingFront()) continue;
                int x, y, w, h;
                Slot(module.Index, out x, out y, out w, out h);
                regions.Add(new Region
                {
                    Target = new Target { Name = module.Kind, IsModule = true, Module = i },
                    X = x, Y = y, W = w, H = h, Color = module.Solved ? new byte[] { 60, 90, 60 } : new byte[] { 90, 90, 80 },
                });
            }
            return regions;
        }

        void Slot(int index, out int x, out int y, out int w, out int h)
        {
            int left = _width * 3 / 20, top = _height / 5;
            int cw = _width * 7 / 30, ch = _height * 3 / 10;
            x = left + (index % 3) * cw + cw / 12;
            y = top + (index / 3) * ch + ch / 12;
            w = cw * 5 / 6;
            h = ch * 5 / 6;
        }

        static byte[] ElementColor(FakeModule module, int i)
        {
            byte shade = (byte)(120 + 20 * (i % 5));
            return module.Solved ? new byte[] { 40, shade, 40 } : new byte[] { shade, shade, (byte)(shade / 2) };
        }

        // ------------------------------------------------------------------ pictures

        public byte[] CaptureFrame()
        {
            var image = new byte[_width * _height * 3];
            // A vertical gradient for the room, so no frame is a flat fill.
            for (int y = 0; y < _height; y++)
            {
                byte shade = (byte)(20 + 40 * y / Math.Max(1, _height - 1));
                for (int x = 0; x < _width; x++) Put(image, x, y, shade, shade, (byte)(shade + 10));
            }
            if (_mission != null && _lit)
            {
                Fill(image, _width / 10, _height / 7, _width * 4 / 5, _height * 5 / 7, new byte[] { 50, 52, 55 });
                if (_focused < 0 && Upright() && FacingFront() == (_timerSlot < 6))
                {
                    int x, y, w, h;
                    Slot(_timerSlot % 6, out x, out y, out w, out h);
                    Fill(image, x, y, w, h, new byte[] { 10, 10, 10 });
                    int bar = (int)(w * Math.Max(0, Math.Min(1, _secondsRemaining / Math.Max(1, _mission.TimeLimit))));
                    Fill(image, x, y + h / 3, bar, h / 3, new byte[] { 220, 30, 30 });
                }
                foreach (Region region in Regions()) Fill(image, region.X, region.Y, region.W, region.H, region.Color);
            }
            return Flip(image);
        }

        public byte[] RenderMask(IList<ITarget> targets, byte[][] colors)
        {
            var image = new byte[_width * _height * 3];
            List<Region> regions = Regions();
            for (int i = 0; i < targets.Count; i++)
            {
                Region region = regions.Find(delegate (Region r) { return r.Target.Name == targets[i].Name && r.Target.Module == ((Target)targets[i]).Module; });
                if (region != null) Fill(image, region.X, region.Y, region.W, region.H, colors[i]);
            }
            return Flip(image);
        }

        void Fill(byte[] image, int x0, int y0, int w, int h, byte[] color)
        {
            for (int y = Math.Max(0, y0); y < Math.Min(_height, y0 + h); y++)
                for (int x = Math.Max(0, x0); x < Math.Min(_width, x0 + w); x++)
                    Put(image, x, y, color[0], color[1], color[2]);
        }

        void Put(byte[] image, int x, int y, byte r, byte g, byte b)
        {
            int at = (y * _width + x) * 3;
            image[at] = r;
            image[at + 1] = g;
            image[at + 2] = b;
        }

        /// <summary>Top-down rows to Unity's bottom-to-top read-back order.</summary>
        byte[] Flip(byte[] image)
        {
            int stride = _width * 3;
            var flipped = new byte[image.Length];
            for (int y = 0; y < _height; y++) Buffer.BlockCopy(image, y * stride, flipped, (_height - 1 - y) * stride, stride);
            return flipped;
        }

        static void Shuffle(Random rng, List<int> items)
        {
            for (int i = items.Count - 1; i > 0; i--)
            {
                int j = rng.Next(i + 1);
                int swap = items[i]; items[i] = items[j]; items[j] = swap;
            }
        }
    }
}
