using System;
using System.Collections.Generic;
using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// One reader per vanilla module kind: the game's module component → the protocol's module
    /// state (docs/protocol.md §7.3). A table keyed by KTANE's ComponentTypeEnum name, so adding a
    /// kind is one entry. The game members each reader uses are declared once, in the holder class
    /// named after its kind, with the owner type, name and kind the game has (GPTNT's compiled mod
    /// reads the same members; tests/mod/test_api_crosscheck.py checks every one). A member that
    /// cannot be read leaves its protocol field at the default and names it in "unreadFields".
    /// The reader fills only the kind's own fields — the adapter sets placement, solved and focus.
    /// </summary>
    public static class ModuleReaders
    {
        /// <summary>
        /// A module's state from its component and the names of its module selectable's
        /// non-null children, in order (Wires and Complicated Wires take a wire's slot from the
        /// last digit of its selectable's name).
        /// </summary>
        public delegate ModuleState Reader(object component, IList<string> childNames, Reading reading);

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

        /// <summary>The holders of the members read by name, for the start-up check.</summary>
        public static readonly Type[] Holders =
        {
            typeof(Common), typeof(Wires), typeof(BigButton), typeof(Keypad), typeof(Simon), typeof(WhosOnFirst),
            typeof(Memory), typeof(Morse), typeof(Venn), typeof(WireSequence), typeof(Maze), typeof(Password),
        };

        public static class Common
        {
            public static readonly GameMember Focused = Reflect.Field("BombComponent", "isFocused");
            public static readonly GameMember TextOf = Reflect.Property("TMPro.TMP_Text", "text");
            public static readonly GameMember Active = Reflect.Property("UnityEngine.GameObject", "activeInHierarchy");
            public static readonly GameMember ButtonIndex = Reflect.Field("KeypadButton", "ButtonIndex");
            public static readonly GameMember ButtonText = Reflect.Field("KeypadButton", "Text");
        }

        public static class Wires
        {
            public static readonly GameMember List = Reflect.Field("WireSetComponent", "wires");
            public static readonly GameMember Color = Reflect.Method("SnippableWire", "GetColor");
            public static readonly GameMember Snipped = Reflect.Property("SnippableWire", "Snipped");
        }

        public static class BigButton
        {
            public static readonly GameMember Color = Reflect.Property("ButtonComponent", "ButtonColor");
            public static readonly GameMember Instruction = Reflect.Property("ButtonComponent", "ButtonInstruction");
            public static readonly GameMember Holding = Reflect.Property("ButtonComponent", "IsHolding");
            public static readonly GameMember Strip = Reflect.Property("ButtonComponent", "IndicatorColor");
        }

        public static class Keypad
        {
            public static readonly GameMember Buttons = Reflect.Field("KeypadComponent", "buttons");
            public static readonly GameMember Glyph = Reflect.Method("KeypadButton", "GetValue");
            public static readonly GameMember Correct = Reflect.Field("KeypadButton", "LED_Correct");
            public static readonly GameMember Wrong = Reflect.Field("KeypadButton", "LED_Wrong");
        }

        public static class Simon
        {
            public static readonly GameMember Sequence = Reflect.Field("SimonComponent", "currentSequence");
            public static readonly GameMember Progress = Reflect.Field("SimonComponent", "lastIndex");
        }

        public static class WhosOnFirst
        {
            public static readonly GameMember Emerged = Reflect.Property("WhosOnFirstComponent", "ButtonsEmerged");
            public static readonly GameMember Stage = Reflect.Property("WhosOnFirstComponent", "CurrentStage");
            public static readonly GameMember Display = Reflect.Field("WhosOnFirstComponent", "DisplayText");
            public static readonly GameMember Buttons = Reflect.Field("WhosOnFirstComponent", "Buttons");
        }

        public static class Memory
        {
            public static readonly GameMember Emerged = Reflect.Field("MemoryComponent", "buttonsEmerged");
            public static readonly GameMember Stage = Reflect.Property("MemoryComponent", "CurrentStage");
            public static readonly GameMember Display = Reflect.Field("MemoryComponent", "DisplayText");
            public static readonly GameMember Buttons = Reflect.Field("MemoryComponent", "Buttons");
        }

        public static class Morse
        {
            public static readonly GameMember Word = Reflect.Field("MorseCodeComponent", "chosenWord");
            public static readonly GameMember Current = Reflect.Property("MorseCodeComponent", "CurrentFrequency");
            public static readonly GameMember Chosen = Reflect.Property("MorseCodeComponent", "ChosenFrequency");
        }

        public static class Venn
        {
            public static readonly GameMember Wires = Reflect.Property("Assets.Scripts.Components.VennWire.VennWireComponent", "ActiveWires");
            public static readonly GameMember Color = Reflect.Property("VennSnippableWire", "Color");
            public static readonly GameMember Led = Reflect.Property("VennSnippableWire", "IsLEDOn");
            public static readonly GameMember Star = Reflect.Property("VennSnippableWire", "HasSymbol");
            public static readonly GameMember Snipped = Reflect.Property("VennSnippableWire", "Snipped");
        }

        public static class WireSequence
        {
            public static readonly GameMember Page = Reflect.Field("WireSequenceComponent", "currentPage");
            public static readonly GameMember Slots = Reflect.Field("WireSequenceComponent", "wireSequence");
            public static readonly GameMember Changing = Reflect.Property("WireSequenceComponent", "IsChangingPage");
            public static readonly GameMember NoWire = Reflect.Field("WireSequenceComponent+WireConfiguration", "NoWire");
            public static readonly GameMember To = Reflect.Field("WireSequenceComponent+WireConfiguration", "To");
            public static readonly GameMember Wire = Reflect.Field("WireSequenceComponent+WireConfiguration", "Wire");
            public static readonly GameMember Color = Reflect.Method("WireSequenceWire", "GetColor");
            public static readonly GameMember Snipped = Reflect.Property("WireSequenceWire", "Snipped");
        }

        public static class Maze
        {
            public static readonly GameMember Current = Reflect.Property("InvisibleWallsComponent", "CurrentCell");
            public static readonly GameMember Goal = Reflect.Property("InvisibleWallsComponent", "GoalCell");
            public static readonly GameMember Cells = Reflect.Field("InvisibleWallsComponent", "Cells");
            public static readonly GameMember Cell = Reflect.Field("InvisibleMazeCell", "cell");
            public static readonly GameMember Identifier1 = Reflect.Field("InvisibleMazeCell", "Identifier1");
            public static readonly GameMember Identifier2 = Reflect.Field("InvisibleMazeCell", "Identifier2");
            public static readonly GameMember X = Reflect.Field("MazeCell", "X");
            public static readonly GameMember Y = Reflect.Field("MazeCell", "Y");
        }

        public static class Password
        {
            public static readonly GameMember Layout = Reflect.Field("PasswordComponent", "m_CurrentLayout");
            public static readonly GameMember Current = Reflect.Method("PasswordLayout", "GetCurrentWord");
            public static readonly GameMember Goal = Reflect.Property("PasswordComponent", "CorrectWord");
        }

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

        /// <summary>Slots 0–5 from the last digit of each wire selectable's name ("Wire1" → 0).</summary>
        static int Slot(IList<string> childNames, int i, Reading reading, string field)
        {
            int digit;
            string name = childNames != null && i < childNames.Count ? childNames[i] : null;
            if (name != null && name.Length > 0 && int.TryParse(name.Substring(name.Length - 1), out digit) && digit >= 1 && digit <= 6)
                return digit - 1;
            reading.Mark(field);
            return -1;
        }

        static ModuleState ReadWires(object component, IList<string> childNames, Reading reading)
        {
            var module = new WiresModule();
            object[] wires = reading.Items(Wires.List, component, "wires");
            for (int i = 0; i < wires.Length; i++)
            {
                int slot = Slot(childNames, i, reading, "wires.position");
                if (slot < 0) continue;
                module.Wires[slot] = new Wire
                {
                    Position = slot,
                    IsCut = reading.Bool(Wires.Snipped, wires[i], "wires.isCut"),
                    Color = reading.Lower(Wires.Color, wires[i], "wires.color"),
                };
            }
            return module;
        }

        static ModuleState ReadButton(object component, IList<string> childNames, Reading reading)
        {
            bool held = reading.Bool(BigButton.Holding, component, "isHeld");
            string word = reading.Text(BigButton.Instruction, component, "buttonWord");
            return new BigButtonModule
            {
                ButtonColor = reading.Lower(BigButton.Color, component, "buttonColor"),
                ButtonWord = string.IsNullOrEmpty(word) ? null : word.Substring(0, 1).ToUpperInvariant() + word.Substring(1).ToLowerInvariant(),
                IsHeld = held,
                StripColor = held ? reading.Lower(BigButton.Strip, component, "stripColor") : null,
            };
        }

        static KeypadKey Key(object button, Reading reading)
        {
            string glyph = reading.Text(Keypad.Glyph, button, "symbol") ?? "";
            string symbol;
            var key = new KeypadKey(KeypadGlyphs.TryGetValue(glyph, out symbol) ? symbol : glyph);
            if (reading.Bool(Common.Active, reading.Get(Keypad.Correct, button, "color"), "color")) key.Color = "green";
            else if (reading.Bool(Common.Active, reading.Get(Keypad.Wrong, button, "color"), "color")) key.Color = "red";
            return key;
        }

        static ModuleState ReadKeypad(object component, IList<string> childNames, Reading reading)
        {
            object[] buttons = reading.Items(Keypad.Buttons, component, "symbol");
            var keys = new KeypadKey[4];
            for (int i = 0; i < 4; i++) keys[i] = i < buttons.Length ? Key(buttons[i], reading) : new KeypadKey(null);
            return new KeypadModule { TopLeft = keys[0], TopRight = keys[1], BottomLeft = keys[2], BottomRight = keys[3] };
        }

        static ModuleState ReadSimon(object component, IList<string> childNames, Reading reading)
        {
            var module = new SimonModule();
            foreach (object index in reading.Items(Simon.Sequence, component, "beepSequence"))
            {
                int colour = Convert.ToInt32(index, System.Globalization.CultureInfo.InvariantCulture);
                module.BeepSequence.Add(colour >= 0 && colour < 4 ? SimonColors[colour] : colour.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
            module.SolveProgress = reading.Int(Simon.Progress, component, "solveProgress");
            return module;
        }

        /// <summary>Each button's label (KeypadButton.Text.text) at its ButtonIndex.</summary>
        static List<string> Labels(object[] buttons, int count, Reading reading, string field)
        {
            var labels = new List<string>(new string[count]);
            foreach (object button in buttons)
            {
                int index = reading.Int(Common.ButtonIndex, button, field);
                string text = reading.Text(Common.TextOf, reading.Get(Common.ButtonText, button, field), field);
                if (index >= 0 && index < count) labels[index] = text;
            }
            return labels;
        }

        static ModuleState ReadWhosOnFirst(object component, IList<string> childNames, Reading reading)
        {
            bool emerged = reading.Bool(WhosOnFirst.Emerged, component, "isEmerged");
            return new WhosOnFirstModule
            {
                IsEmerged = emerged,
                DisplayWord = emerged ? reading.Text(Common.TextOf, reading.Get(WhosOnFirst.Display, component, "displayWord"), "displayWord") : null,
                ButtonWords = emerged ? Labels(reading.Items(WhosOnFirst.Buttons, component, "buttonWords"), 6, reading, "buttonWords") : null,
                Stage = reading.Int(WhosOnFirst.Stage, component, "stage") + 1,
            };
        }

        static ModuleState ReadMemory(object component, IList<string> childNames, Reading reading)
        {
            string display = reading.Text(Common.TextOf, reading.Get(Memory.Display, component, "displayNumber"), "displayNumber");
            // Emerged once the buttons are up and the display shows a number.
            bool emerged = reading.Bool(Memory.Emerged, component, "isEmerged") && !string.IsNullOrEmpty(display);
            return new MemoryModule
            {
                IsEmerged = emerged,
                DisplayNumber = emerged ? display : null,
                ButtonNumbers = emerged ? Labels(reading.Items(Memory.Buttons, component, "buttonNumbers"), 4, reading, "buttonNumbers") : null,
                Stage = reading.Int(Memory.Stage, component, "stage") + 1,
            };
        }

        static ModuleState ReadMorse(object component, IList<string> childNames, Reading reading)
        {
            string word = reading.Text(Morse.Word, component, "sequence");
            return new MorseModule
            {
                Sequence = word == null ? null : word.ToLowerInvariant(),
                CurrentFrequency = reading.Int(Morse.Current, component, "currentFrequency"),
                CorrectFrequency = reading.Int(Morse.Chosen, component, "correctFrequency"),
            };
        }

        static ModuleState ReadVenn(object component, IList<string> childNames, Reading reading)
        {
            var module = new VennModule();
            object[] wires = reading.Items(Venn.Wires, component, "wires");
            for (int i = 0; i < wires.Length; i++)
            {
                int slot = Slot(childNames, i, reading, "wires.position");
                if (slot < 0) continue;
                module.Wires[slot] = new VennWire
                {
                    Position = slot,
                    IsCut = reading.Bool(Venn.Snipped, wires[i], "wires.isCut"),
                    Color = reading.Lower(Venn.Color, wires[i], "wires.color"),  // flags: "red, white"
                    IsLedOn = reading.Bool(Venn.Led, wires[i], "wires.isLedOn"),
                    HasStar = reading.Bool(Venn.Star, wires[i], "wires.hasStar"),
                };
            }
            return module;
        }

        static ModuleState ReadWireSequence(object component, IList<string> childNames, Reading reading)
        {
            var module = new WireSequenceModule
            {
                Panel = reading.Int(WireSequence.Page, component, "panel") + 1,
                IsEmerged = !reading.Bool(WireSequence.Changing, component, "isEmerged"),
            };
            object[] slots = reading.Items(WireSequence.Slots, component, "wires");
            for (int i = 0; i < slots.Length && i < 12; i++)
            {
                if (reading.Bool(WireSequence.NoWire, slots[i], "wires")) continue;
                int to = reading.Int(WireSequence.To, slots[i], "wires.endPositionLetter");
                object wire = reading.Get(WireSequence.Wire, slots[i], "wires");
                module.Wires[i] = new SequenceWire
                {
                    StartPositionNumber = i,
                    EndPositionLetter = ((char)('A' + Math.Max(0, Math.Min(2, to)))).ToString(),
                    Color = reading.Lower(WireSequence.Color, wire, "wires.color"),
                    IsCut = reading.Bool(WireSequence.Snipped, wire, "wires.isCut"),
                };
            }
            return module;
        }

        /// <summary>A game MazeCell: X is the column, Y the row, (0,0) top-left.</summary>
        static Protocol.MazeCell Cell(object cell, Reading reading, string field)
        {
            return new Protocol.MazeCell(reading.Int(Maze.Y, cell, field), reading.Int(Maze.X, cell, field));
        }

        static ModuleState ReadMaze(object component, IList<string> childNames, Reading reading)
        {
            var module = new MazeModule
            {
                SquarePosition = Cell(reading.Get(Maze.Current, component, "squarePosition"), reading, "squarePosition"),
                TrianglePosition = Cell(reading.Get(Maze.Goal, component, "trianglePosition"), reading, "trianglePosition"),
            };
            // The two identifier circles: the cells whose Identifier1 or Identifier2 object is set.
            int found = 0;
            foreach (object column in reading.Items(Maze.Cells, component, "circlePositions"))
                foreach (object cell in Reflect.Items(column))
                {
                    if (found == 2) break;
                    if (reading.Get(Maze.Identifier1, cell, "circlePositions") == null && reading.Get(Maze.Identifier2, cell, "circlePositions") == null) continue;
                    module.CirclePositions[found++] = Cell(reading.Get(Maze.Cell, cell, "circlePositions"), reading, "circlePositions");
                }
            return module;
        }

        static ModuleState ReadPassword(object component, IList<string> childNames, Reading reading)
        {
            string current = reading.Text(Password.Current, reading.Get(Password.Layout, component, "currentWord"), "currentWord");
            string goal = reading.Text(Password.Goal, component, "goalWord");
            return new PasswordModule
            {
                CurrentWord = current == null ? null : current.ToUpperInvariant(),
                GoalWord = goal == null ? null : goal.ToUpperInvariant(),
            };
        }
    }
}
