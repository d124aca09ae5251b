using System;
using System.Collections.Generic;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Fake
{
    /// <summary>
    /// One module of the fake bomb: the protocol's element ids (the order they are segmented
    /// in), a plausible state of its kind for /state, and one deliberately simple rule — press
    /// the module's solution elements (in order) to solve it; any other element is a strike.
    /// It is a stand-in for the real game in protocol tests, not a reimplementation of KTANE.
    /// </summary>
    public sealed class FakeModule
    {
        static readonly string[] WireColors = { "red", "yellow", "blue", "black", "white" };
        static readonly string[] KeypadSymbols =
        {
            "copyright", "star", "hollow-star", "pashto-teh", "zh", "omega", "ligature-iotated-e", "ot",
            "kai", "egyptian-kai", "lunate-sampi", "qoppa", "little-yus", "ae", "ha-with-descender",
            "e-with-diaeresis", "thousand-sign", "short-i", "ksi", "inverted-question", "pilcrow",
            "lunate-epsilon", "reversed-lunate-epsilon", "psi", "big-yus", "qa", "titlo",
            "archaic-koppa", "zeta", "lambda-bar", "yat",
        };
        static readonly string[] SimonColors = { "red", "blue", "green", "yellow" };
        static readonly string[] Words = { "YES", "FIRST", "DISPLAY", "OKAY", "SAYS", "NOTHING", "BLANK", "READ", "RED", "YOU" };
        static readonly string[] MorseWords = { "shell", "halls", "slick", "trick", "boxes", "leaks", "strobe", "bistro" };
        static readonly string[] VennColors = { "white", "red", "blue", "red, white", "blue, white", "red, blue" };
        static readonly string[] Passwords = { "ABOUT", "AFTER", "AGAIN", "PLANT", "WORLD", "WRITE", "THERE", "THING" };

        /// <summary>Game seconds the buttons of Memory, Who's on First and Wire Sequence take to rise.</summary>
        public const double EmergeSeconds = 1.0;

        public readonly string Kind;
        public readonly bool OnFront;
        public readonly int Index;
        public bool Solved;
        /// <summary>Game time the buttons are up (set when the module activates at lights-on).</summary>
        public double EmergedAt = double.PositiveInfinity;
        public readonly List<string> Elements = new List<string>();
        readonly List<string> _solution = new List<string>();
        readonly ModuleState _state;
        readonly Dictionary<string, Wire> _wires = new Dictionary<string, Wire>();
        readonly Dictionary<string, KeypadKey> _keys = new Dictionary<string, KeypadKey>();
        string _display;  // Memory, Who's on First: shown once emerged
        List<string> _labels;

        public FakeModule(string kind, bool onFront, int index, Random rng)
        {
            Kind = kind;
            OnFront = onFront;
            Index = index;
            _state = Generate(rng);
            _state.OnFront = onFront;
            _state.Index = index;
            if (_solution.Count == 0) _solution.Add(Elements[rng.Next(Elements.Count)]);
        }

        /// <summary>Press an element; returns true when it was a mistake (a strike).</summary>
        public bool Press(string element)
        {
            if (Solved) return false;
            Wire wire;
            if (_wires.TryGetValue(element, out wire)) wire.IsCut = true;
            var big = _state as BigButtonModule;
            if (big != null)
            {
                big.IsHeld = true;
                big.StripColor = "blue";
                return false;  // the button acts on release
            }
            return Advance(element);
        }

        public bool Release(string element)
        {
            var big = _state as BigButtonModule;
            if (big == null || !big.IsHeld) return false;
            big.IsHeld = false;
            big.StripColor = null;
            return Advance(element);
        }

        bool Advance(string element)
        {
            KeypadKey key;
            bool right = _solution.Count > 0 && _solution[0] == element;
            if (_keys.TryGetValue(element, out key)) key.Color = right ? "green" : "red";
            if (!right) return true;
            _solution.RemoveAt(0);
            if (_solution.Count == 0) Solved = true;
            return false;
        }

        /// <summary>
        /// The module's state at game time <paramref name="now"/>. While its buttons rise, Memory
        /// and Who's on First hide their display and labels, as the game does.
        /// </summary>
        public ModuleState Export(bool inFocus, double now)
        {
            _state.IsSolved = Solved;
            _state.InFocus = inFocus;
            bool emerged = Solved || now >= EmergedAt;
            var who = _state as WhosOnFirstModule;
            if (who != null)
            {
                who.IsEmerged = emerged;
                who.DisplayWord = emerged ? _display : null;
                who.ButtonWords = emerged ? _labels : null;
            }
            var memory = _state as MemoryModule;
            if (memory != null)
            {
                memory.IsEmerged = emerged;
                memory.DisplayNumber = emerged ? _display : null;
                memory.ButtonNumbers = emerged ? _labels : null;
            }
            var sequence = _state as WireSequenceModule;
            if (sequence != null) sequence.IsEmerged = emerged;
            return _state;
        }

        ModuleState Generate(Random rng)
        {
            switch (Kind)
            {
                case "Wires":
                    {
                        var module = new WiresModule();
                        int count = 3 + rng.Next(4);
                        for (int slot = 0; slot < 6 && _wires.Count < count; slot++)
                        {
                            if (6 - slot > count - _wires.Count && rng.Next(3) == 0) continue;
                            var wire = new Wire { Position = slot, Color = Pick(rng, WireColors) };
                            module.Wires[slot] = wire;
                            _wires["wire-" + slot] = wire;
                            Elements.Add("wire-" + slot);
                        }
                        return module;
                    }
                case "BigButton":
                    Elements.Add("button");
                    return new BigButtonModule
                    {
                        ButtonColor = Pick(rng, new[] { "red", "blue", "yellow", "white" }),
                        ButtonWord = Pick(rng, new[] { "Abort", "Detonate", "Hold", "Press" }),
                    };
                case "Keypad":
                    {
                        var symbols = Shuffled(rng, KeypadSymbols);
                        var module = new KeypadModule
                        {
                            TopLeft = new KeypadKey(symbols[0]),
                            TopRight = new KeypadKey(symbols[1]),
                            BottomLeft = new KeypadKey(symbols[2]),
                            BottomRight = new KeypadKey(symbols[3]),
                        };
                        string[] names = { "top-left", "top-right", "bottom-left", "bottom-right" };
                        KeypadKey[] keys = { module.TopLeft, module.TopRight, module.BottomLeft, module.BottomRight };
                        for (int i = 0; i < 4; i++) { Elements.Add(names[i]); _keys[names[i]] = keys[i]; }
                        _solution.AddRange(Shuffled(rng, names));
                        return module;
                    }
                case "Simon":
                    {
                        Elements.AddRange(new[] { "red", "blue", "green", "yellow" });
                        var module = new SimonModule();
                        int length = 3 + rng.Next(3);
                        for (int i = 0; i < length; i++) module.BeepSequence.Add(Pick(rng, SimonColors));
                        return module;
                    }
                case "WhosOnFirst":
                    for (int i = 0; i < 6; i++) Elements.Add("button-" + i);
                    _display = Pick(rng, Words);
                    _labels = new List<string>(Shuffled(rng, Words)).GetRange(0, 6);
                    return new WhosOnFirstModule();
                case "Memory":
                    for (int i = 0; i < 4; i++) Elements.Add("button-" + i);
                    _labels = new List<string>(Shuffled(rng, new[] { "1", "2", "3", "4" }));
                    _display = Pick(rng, _labels.ToArray());
                    return new MemoryModule();
                case "Morse":
                    Elements.AddRange(new[] { "left", "right", "transmit" });
                    _solution.Add("transmit");
                    return new MorseModule
                    {
                        Sequence = Pick(rng, MorseWords),
                        CurrentFrequency = 505,
                        CorrectFrequency = 505 + 10 * rng.Next(10),
                    };
                case "Venn":
                    {
                        var module = new VennModule();
                        int count = 3 + rng.Next(4);
                        for (int slot = 0; slot < count; slot++)
                        {
                            module.Wires[slot] = new VennWire
                            {
                                Position = slot, Color = Pick(rng, VennColors),
                                IsLedOn = rng.Next(2) == 0, HasStar = rng.Next(2) == 0,
                            };
                            Elements.Add("wire-" + slot);
                        }
                        return module;
                    }
                case "WireSequence":
                    {
                        var module = new WireSequenceModule();
                        string[] letters = { "A", "B", "C" };
                        for (int slot = 0; slot < 12; slot++)
                        {
                            if (slot % 3 != 0 && rng.Next(2) == 0) continue;
                            module.Wires[slot] = new SequenceWire
                            {
                                StartPositionNumber = slot, EndPositionLetter = Pick(rng, letters),
                                Color = Pick(rng, new[] { "red", "blue", "black" }),
                            };
                            if (slot < 3) Elements.Add("wire-" + slot);
                        }
                        Elements.Add("down");
                        Elements.Add("up");
                        return module;
                    }
                case "Maze":
                    Elements.AddRange(new[] { "up", "left", "right", "down" });
                    return new MazeModule
                    {
                        SquarePosition = new MazeCell(rng.Next(6), rng.Next(6)),
                        TrianglePosition = new MazeCell(rng.Next(6), rng.Next(6)),
                        CirclePositions = new[] { new MazeCell(rng.Next(6), 0), new MazeCell(rng.Next(6), 5) },
                    };
                case "Password":
                    for (int i = 0; i < 5; i++) Elements.Add("up-" + i);
                    for (int i = 0; i < 5; i++) Elements.Add("down-" + i);
                    Elements.Add("submit");
                    _solution.Add("submit");
                    return new PasswordModule { CurrentWord = "QWERT", GoalWord = Pick(rng, Passwords) };
                default:
                    throw new RefusedException(400, MissionConfig.EnterComponents
                        + " (the fake game cannot build '" + Kind + "')");
            }
        }

        static string Pick(Random rng, string[] items) { return items[rng.Next(items.Length)]; }

        static string[] Shuffled(Random rng, string[] items)
        {
            var copy = (string[])items.Clone();
            for (int i = copy.Length - 1; i > 0; i--)
            {
                int j = rng.Next(i + 1);
                string swap = copy[i]; copy[i] = copy[j]; copy[j] = swap;
            }
            return copy;
        }
    }
}
