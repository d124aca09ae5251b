using System;
using System.Collections.Generic;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// One reader per vanilla module kind: the game's module component → the protocol's module
    /// state (docs/protocol.md §7.3). A table keyed by KTANE's ComponentTypeEnum name, so adding a
    /// kind is one entry. Members are read by name through <see cref="Reflect"/> with the names
    /// the game uses (several candidates where game builds differ); the reader fills only the
    /// kind's own fields — the adapter sets placement, solved and focus.
    /// </summary>
    public static class ModuleReaders
    {
        public delegate ModuleState Reader(object component);

        public static readonly Dictionary<string, Reader> ByKind = new Dictionary<string, Reader>
        {
            { "Wires", ReadWires },
            { "BigButton", ReadButton },
            { "Keypad", ReadKeypad },
            { "Simon", ReadSimon },
            { "WhosOnFirst", ReadWhosOnFirst },
            { "Memory", ReadMemory },
            { "Morse", ReadMorse },
            { "Venn", ReadVenn },
            { "WireSequence", ReadWireSequence },
            { "Maze", ReadMaze },
            { "Password", ReadPassword },
        };

        static readonly string[] SimonColors = { "red", "blue", "green", "yellow" };

        /// <summary>The game's keypad glyphs → the protocol's symbol names (§7.3).</summary>
        static readonly Dictionary<string, string> KeypadGlyphs = new Dictionary<string, string>
        {
            { "\u00A9", "copyright" }, { "\u2605", "star" }, { "\u2606", "hollow-star" }, { "\u067C", "pashto-teh" },
            { "\u0496", "zh" }, { "\u03A9", "omega" }, { "\u046C", "ligature-iotated-e" }, { "\u047C", "ot" },
            { "\u03D7", "kai" }, { "\u03EB", "egyptian-kai" }, { "\u03EC", "lunate-sampi" }, { "\u03DE", "qoppa" },
            { "\u0466", "little-yus" }, { "\u04D5", "ae" }, { "\u0506", "ha-with-descender" }, { "\u04EC", "e-with-diaeresis" },
            { "\u0488", "thousand-sign" }, { "\u048A", "short-i" }, { "\u046F", "ksi" }, { "\u00BF", "inverted-question" },
            { "\u00B6", "pilcrow" }, { "\u03FE", "lunate-epsilon" }, { "\u03FF", "reversed-lunate-epsilon" }, { "\u03A8", "psi" },
            { "\u046A", "big-yus" }, { "\u04A8", "qa" }, { "\u0482", "titlo" }, { "\u03D8", "archaic-koppa" },
            { "\u03B6", "zeta" }, { "\u019B", "lambda-bar" }, { "\u0463", "yat" },
        };

        /// <summary>Morse words of the v1 manual → frequency suffix (3.5xx MHz), when the game hides it.</summary>
        static readonly Dictionary<string, double> MorseFrequencies = new Dictionary<string, double>
        {
            { "shell", 505 }, { "halls", 515 }, { "slick", 522 }, { "trick", 532 }, { "boxes", 535 },
            { "leaks", 542 }, { "strobe", 545 }, { "bistro", 552 }, { "flick", 555 }, { "bombs", 565 },
            { "break", 572 }, { "brick", 575 }, { "steak", 582 }, { "sting", 592 }, { "vector", 595 },
            { "beats", 600 },
        };

        static string Lower(object value) { return value == null ? null : value.ToString().ToLowerInvariant(); }

        static ModuleState ReadWires(object component)
        {
            var module = new WiresModule();
            object[] wires = Reflect.Items(component, "wires");
            for (int i = 0; i < wires.Length; i++)
            {
                int slot = Reflect.Int(wires[i], i, "WireIndex", "wireIndex");
                if (slot < 0 || slot > 5) continue;
                module.Wires[slot] = new Wire
                {
                    Position = slot,
                    IsCut = Reflect.Bool(wires[i], "Snipped"),
                    Color = Lower(Reflect.Get(wires[i], "Color", "color")),
                };
            }
            return module;
        }

        static ModuleState ReadButton(object component)
        {
            bool held = Reflect.Bool(component, "isHeld", "IsHeld");
            string word = Reflect.Text(component, "ButtonText", "buttonText", "text");
            return new BigButtonModule
            {
                ButtonColor = Lower(Reflect.Get(component, "ButtonColor", "buttonColor")),
                ButtonWord = word == null || word.Length == 0 ? null : word.Substring(0, 1).ToUpperInvariant() + word.Substring(1).ToLowerInvariant(),
                IsHeld = held,
                StripColor = held ? Lower(Reflect.Get(component, "IndicatorColor", "StripColor", "indicatorColor")) : null,
            };
        }

        static KeypadKey Key(object button)
        {
            string glyph = Convert.ToString(Reflect.Call(button, "GetText") ?? Reflect.Text(button, "Text", "text"));
            string symbol;
            var key = new KeypadKey(KeypadGlyphs.TryGetValue(glyph ?? "", out symbol) ? symbol : glyph);
            if (Reflect.Bool(button, "IsStaged", "isStaged")) key.Color = "green";
            return key;
        }

        static ModuleState ReadKeypad(object component)
        {
            object[] buttons = Reflect.Items(component, "buttons", "Buttons");
            if (buttons.Length < 4) return new KeypadModule { TopLeft = new KeypadKey(null), TopRight = new KeypadKey(null), BottomLeft = new KeypadKey(null), BottomRight = new KeypadKey(null) };
            return new KeypadModule { TopLeft = Key(buttons[0]), TopRight = Key(buttons[1]), BottomLeft = Key(buttons[2]), BottomRight = Key(buttons[3]) };
        }

        static ModuleState ReadSimon(object component)
        {
            var module = new SimonModule();
            foreach (object index in Reflect.Items(component, "currentSequence"))
            {
                int colour = Convert.ToInt32(index, System.Globalization.CultureInfo.InvariantCulture);
                module.BeepSequence.Add(colour >= 0 && colour < 4 ? SimonColors[colour] : Lower(index));
            }
            module.SolveProgress = Reflect.Int(component, 0, "lastIndex", "currentSequenceIndex");
            return module;
        }

        static List<string> ButtonTexts(object component)
        {
            var texts = new List<string>();
            foreach (object button in Reflect.Items(component, "Buttons", "buttons"))
                texts.Add(Convert.ToString(Reflect.Call(button, "GetText")));
            return texts;
        }

        static ModuleState ReadWhosOnFirst(object component)
        {
            bool emerged = Reflect.Bool(component, "ButtonsEmerged", "buttonsEmerged");
            return new WhosOnFirstModule
            {
                IsEmerged = emerged,
                DisplayWord = emerged ? Reflect.Text(component, "DisplayText") : null,
                ButtonWords = emerged ? ButtonTexts(component) : null,
                Stage = Reflect.Int(component, 0, "currentStage", "CurrentStage") + 1,
            };
        }

        static ModuleState ReadMemory(object component)
        {
            bool emerged = Reflect.Bool(component, "buttonsEmerged", "ButtonsEmerged");
            string display = emerged ? Reflect.Text(component, "DisplayText") : null;
            return new MemoryModule
            {
                IsEmerged = emerged,
                DisplayNumber = string.IsNullOrEmpty(display) ? null : display,
                ButtonNumbers = string.IsNullOrEmpty(display) ? null : ButtonTexts(component),
                Stage = Reflect.Int(component, 0, "currentStage", "CurrentStage") + 1,
            };
        }

        static ModuleState ReadMorse(object component)
        {
            string word = Lower(Reflect.Get(component, "chosenWord", "ChosenWord"));
            double correct;
            if (!MorseFrequencies.TryGetValue(word ?? "", out correct))
                correct = Reflect.Int(component, 0, "correctFrequency", "CorrectFrequency");
            return new MorseModule
            {
                Sequence = word,
                CurrentFrequency = Reflect.Int(component, 0, "CurrentFrequency", "currentFrequency"),
                CorrectFrequency = correct,
            };
        }

        static ModuleState ReadVenn(object component)
        {
            var module = new VennModule();
            object[] wires = Reflect.Items(component, "ActiveWires", "wires");
            for (int i = 0; i < wires.Length && i < 6; i++)
            {
                object config = Reflect.Get(wires[i], "WireConfig", "wireConfig") ?? wires[i];
                module.Wires[i] = new VennWire
                {
                    Position = i,
                    IsCut = Reflect.Bool(wires[i], "Snipped"),
                    Color = Lower(Reflect.Get(config, "Color", "color")),
                    IsLedOn = Reflect.Bool(config, "HasLED", "IsLedOn", "hasLED"),
                    HasStar = Reflect.Bool(config, "HasStar", "hasStar"),
                };
            }
            return module;
        }

        static ModuleState ReadWireSequence(object component)
        {
            var module = new WireSequenceModule
            {
                Panel = Reflect.Int(component, 0, "currentPage") + 1,
                IsEmerged = !Reflect.Bool(component, "isChangingPage", "IsChangingPage"),
            };
            object[] slots = Reflect.Items(component, "wireSequence");
            for (int i = 0; i < slots.Length && i < 12; i++)
            {
                if (Reflect.Bool(slots[i], "NoWire")) continue;
                int to = Reflect.Int(slots[i], 0, "To", "to");
                module.Wires[i] = new SequenceWire
                {
                    StartPositionNumber = i,
                    EndPositionLetter = "ABC".Substring(Math.Max(0, Math.Min(2, to)), 1),
                    Color = Lower(Reflect.Get(slots[i], "Color", "color")),
                    IsCut = Reflect.Bool(Reflect.Get(slots[i], "Wire"), "Snipped"),
                };
            }
            return module;
        }

        static MazeCell Cell(object cell)
        {
            return new MazeCell(Reflect.Int(cell, 0, "Y", "y"), Reflect.Int(cell, 0, "X", "x"));
        }

        static ModuleState ReadMaze(object component)
        {
            var module = new MazeModule
            {
                SquarePosition = Cell(Reflect.Get(component, "CurrentCell")),
                TrianglePosition = Cell(Reflect.Get(component, "GoalCell")),
            };
            object[] markers = Reflect.Items(Reflect.Get(component, "Maze"), "MarkerCells", "markerCells", "Markers");
            for (int i = 0; i < 2 && i < markers.Length; i++) module.CirclePositions[i] = Cell(markers[i]);
            return module;
        }

        static ModuleState ReadPassword(object component)
        {
            var current = new System.Text.StringBuilder();
            foreach (object spinner in Reflect.Items(component, "Spinners"))
                current.Append(Convert.ToString(Reflect.Call(spinner, "GetCurrentChar")));
            return new PasswordModule
            {
                CurrentWord = current.ToString().ToUpperInvariant(),
                GoalWord = Convert.ToString(Reflect.Get(component, "CorrectWord")).ToUpperInvariant(),
            };
        }
    }
}
