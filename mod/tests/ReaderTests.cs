using System;
using System.Collections.Generic;
using Gptnt.Mod.Protocol;
using Gptnt.Mod.Unity;

namespace Gptnt.Mod.Tests
{
    /// <summary>
    /// The state readers against fakes of the game's types with the real shapes (GameShapes.cs):
    /// each module kind and widget read as the game holds it, and a missing member marked unread.
    /// </summary>
    public static partial class Cases
    {
        static ModuleState Read(string kind, object component, params string[] childNames)
        {
            var reading = new Reading();
            ModuleState state = ModuleReaders.ByKind[kind](component, new List<string>(childNames), reading);
            state.Unread = reading.Unread;
            return state;
        }

        static Game.KeypadButton Button(int index, string label)
        {
            var button = new Game.KeypadButton { ButtonIndex = index };
            button.Text.Value = label;
            return button;
        }

        public static void WiresTakeTheirSlotFromTheSelectableNameAndColourFromGetColor()
        {
            var module = new Game.WireSetComponent();
            module.wires.Add(new Game.SnippableWire { WireColour = Game.BombGame.WireColor.Red });
            module.wires.Add(new Game.SnippableWire { WireColour = Game.BombGame.WireColor.White, Cut = true });
            var state = (WiresModule)Read("Wires", module, "Wire2", "Wire5");
            Check.True(state.Wires[0] == null && state.Wires[2] == null, "empty slots stay null");
            Check.Equal(1, state.Wires[1].Position, "first wire in slot 1 (Wire2)");
            Check.Equal("red", state.Wires[1].Color, "colour");
            Check.Equal(true, state.Wires[4].IsCut, "Snipped");
            Check.Equal("white", state.Wires[4].Color, "second colour");
            Check.Equal(0, state.Unread.Count, "all read");
        }

        public static void ButtonReadsIsHoldingAndTheInstructionWord()
        {
            var button = new Game.ButtonComponent { Colour = Game.BombGame.ButtonColor.Blue, Word = Game.BombGame.ButtonInstruction.Detonate, Strip = Game.BombGame.BigButtonLEDColor.Yellow };
            var idle = (BigButtonModule)Read("BigButton", button);
            Check.Equal("blue", idle.ButtonColor, "colour");
            Check.Equal("Detonate", idle.ButtonWord, "word");
            Check.Equal(null, idle.StripColor, "no strip until held");
            button.Held = true;
            var held = (BigButtonModule)Read("BigButton", button);
            Check.Equal(true, held.IsHeld, "held");
            Check.Equal("yellow", held.StripColor, "strip while held");
        }

        public static void KeypadReadsGetValueAndItsLeds()
        {
            var buttons = new Game.KeypadButton[4];
            string[] glyphs = { "\u00A9", "\u03A9", "\u03B6", "\u0463" };
            for (int i = 0; i < 4; i++) buttons[i] = new Game.KeypadButton { ButtonIndex = i, Glyph = glyphs[i] };
            buttons[1].LED_Correct.Active = true;
            buttons[3].LED_Wrong.Active = true;
            var state = (KeypadModule)Read("Keypad", new Game.KeypadComponent { buttons = buttons });
            Check.Equal("copyright", state.TopLeft.Symbol, "top left");
            Check.Equal("omega", state.TopRight.Symbol, "top right");
            Check.Equal("yat", state.BottomRight.Symbol, "bottom right");
            Check.Equal(null, state.TopLeft.Color, "unlit");
            Check.Equal("green", state.TopRight.Color, "correct LED");
            Check.Equal("red", state.BottomRight.Color, "wrong LED");
        }

        public static void SimonReadsItsPrivateSequence()
        {
            var state = (SimonModule)Read("Simon", new Game.SimonComponent(new[] { 2, 0, 3 }, 1));
            Check.Equal("green,red,yellow", string.Join(",", state.BeepSequence.ToArray()), "sequence");
            Check.Equal(1, state.SolveProgress, "lastIndex");
        }

        public static void WhosOnFirstLabelsComeFromTextByButtonIndex()
        {
            var module = new Game.WhosOnFirstComponent { Emerged = true, Stage = 1 };
            module.DisplayText.Value = "YOU'RE";
            string[] words = { "READY", "FIRST", "NO", "BLANK", "NOTHING", "YES" };
            module.Buttons = new Game.KeypadButton[6];
            for (int i = 0; i < 6; i++) module.Buttons[i] = Button(5 - i, words[5 - i]);  // listed out of index order
            var state = (WhosOnFirstModule)Read("WhosOnFirst", module);
            Check.Equal("READY,FIRST,NO,BLANK,NOTHING,YES", string.Join(",", state.ButtonWords.ToArray()), "by ButtonIndex");
            Check.Equal("YOU'RE", state.DisplayWord, "display");
            Check.Equal(2, state.Stage, "stage 1-based");
            module.Emerged = false;
            var hidden = (WhosOnFirstModule)Read("WhosOnFirst", module);
            Check.True(hidden.ButtonWords == null && hidden.DisplayWord == null && !hidden.IsEmerged, "hidden while emerging");
        }

        public static void MemoryIsEmergedOnlyWithANumberShown()
        {
            var module = new Game.MemoryComponent { Stage = 0 };
            module.Buttons = new[] { Button(2, "1"), Button(0, "3"), Button(3, "2"), Button(1, "4") };
            module.Emerge(true);
            module.DisplayText.Value = "";
            Check.Equal(false, ((MemoryModule)Read("Memory", module)).IsEmerged, "blank display");
            module.DisplayText.Value = "4";
            var state = (MemoryModule)Read("Memory", module);
            Check.Equal("4", state.DisplayNumber, "display");
            Check.Equal("3,4,1,2", string.Join(",", state.ButtonNumbers.ToArray()), "by ButtonIndex");
            Check.Equal(1, state.Stage, "stage");
        }

        public static void MorseReadsTheChosenFrequency()
        {
            var state = (MorseModule)Read("Morse", new Game.MorseCodeComponent("Boxes") { Current = 505, Chosen = 535 });
            Check.Equal("boxes", state.Sequence, "word");
            Check.Equal(505.0, state.CurrentFrequency, "current");
            Check.Equal(535.0, state.CorrectFrequency, "correct");
        }

        public static void ComplicatedWiresReadIsLedOnAndHasSymbol()
        {
            var module = new Game.Assets.Scripts.Components.VennWire.VennWireComponent
            {
                Wires = new[]
                {
                    new Game.VennSnippableWire { Colour = Game.Assets.Scripts.Components.VennWire.VennWireColor.Red | Game.Assets.Scripts.Components.VennWire.VennWireColor.White, Led = true },
                    new Game.VennSnippableWire { Colour = Game.Assets.Scripts.Components.VennWire.VennWireColor.Blue, Star = true, Cut = true },
                },
            };
            var state = (VennModule)Read("Venn", module, "Wire1", "Wire6");
            Check.Equal("red, white", state.Wires[0].Color, "flags colour");
            Check.Equal(true, state.Wires[0].IsLedOn, "IsLEDOn");
            Check.Equal(true, state.Wires[5].HasStar, "HasSymbol");
            Check.Equal(true, state.Wires[5].IsCut, "Snipped");
        }

        public static void WireSequenceReadsItsConfigurations()
        {
            var slots = new List<Game.WireSequenceComponent.WireConfiguration>
            {
                new Game.WireSequenceComponent.WireConfiguration { NoWire = true },
                new Game.WireSequenceComponent.WireConfiguration { To = 2, Wire = new Game.WireSequenceWire { Colour = Game.BombGame.WireColor.Black, Cut = true } },
            };
            var state = (WireSequenceModule)Read("WireSequence", new Game.WireSequenceComponent(1, slots));
            Check.Equal(2, state.Panel, "page 1-based");
            Check.True(state.Wires[0] == null, "no wire");
            Check.Equal("C", state.Wires[1].EndPositionLetter, "to");
            Check.Equal("black", state.Wires[1].Color, "colour");
            Check.Equal(true, state.Wires[1].IsCut, "cut");
        }

        public static void MazeReadsCellsAndTheIdentifierCells()
        {
            var maze = new Game.InvisibleWallsComponent { Current = new Game.MazeCell { X = 4, Y = 1 }, Goal = new Game.MazeCell { X = 0, Y = 5 } };
            for (int x = 0; x < 6; x++)
            {
                var column = new List<Game.InvisibleMazeCell>();
                for (int y = 0; y < 6; y++) column.Add(new Game.InvisibleMazeCell(x, y));
                maze.Cells.Add(column);
            }
            maze.Cells[2][3].Identifier1 = new Game.UnityEngine.GameObject();
            maze.Cells[5][0].Identifier2 = new Game.UnityEngine.GameObject();
            var state = (MazeModule)Read("Maze", maze);
            Check.Equal(1, state.SquarePosition.Row, "Y is the row");
            Check.Equal(4, state.SquarePosition.Column, "X is the column");
            Check.Equal(5, state.TrianglePosition.Row, "goal row");
            Check.Equal(3, state.CirclePositions[0].Row, "first circle row");
            Check.Equal(2, state.CirclePositions[0].Column, "first circle column");
            Check.Equal(5, state.CirclePositions[1].Column, "second circle column");
        }

        public static void PasswordReadsTheLayoutWord()
        {
            var state = (PasswordModule)Read("Password", new Game.PasswordComponent("pcvnk") { Correct = "plant" });
            Check.Equal("PCVNK", state.CurrentWord, "shown");
            Check.Equal("PLANT", state.GoalWord, "answer");
        }

        public static void WidgetsReadAsTheGameHoldsThem()
        {
            var serial = (Protocol.SerialNumberWidget)Edgework.Describe(new Game.SerialNumber("JR2ZR5"), "RightFaces");
            Check.Equal("JR2ZR5", serial.SerialNumber, "serial");
            Check.Equal("right", serial.Position, "side from the parent's name");
            var d = (Protocol.BatteryWidget)Edgework.Describe(new Game.BatteryWidget(Game.BatteryWidget.BatteryTypeEnum.D), "TopFaces");
            Check.Equal("D", d.BatteryType, "D");
            Check.Equal(1, d.BatteriesCount, "one D");
            var aa = (Protocol.BatteryWidget)Edgework.Describe(new Game.BatteryWidget(Game.BatteryWidget.BatteryTypeEnum.AA), "TopFaces");
            Check.Equal(2, aa.BatteriesCount, "two AA");
            var indicator = (Protocol.IndicatorWidget)Edgework.Describe(new Game.IndicatorWidget { Text = "FRK", Lit = true }, "BottomFaces");
            Check.Equal("FRK", indicator.Label, "label");
            Check.Equal(true, indicator.LightActivated, "On");
            var ports = (Protocol.PortWidget)Edgework.Describe(new Game.PortWidget(Game.PortWidget.PortType.DVI | Game.PortWidget.PortType.PS2 | Game.PortWidget.PortType.StereoRCA), "LeftFaces");
            Check.Equal("DVI-D,PS/2,Stereo RCA", string.Join(",", ports.PortType.ToArray()), "flags 1, 4, 32");
            Check.Equal(0, ports.Unread.Count, "all read");
            Check.Equal(null, Edgework.Describe(new object(), "TopFaces"), "modded widgets are not in the protocol");
        }

        public static void AMissingMemberIsMarkedUnreadAndSentInTheJson()
        {
            var state = (WiresModule)Read("Wires", new Game.KeypadComponent());  // no "wires" member at all
            Check.Equal("wires", string.Join(",", state.Unread.ToArray()), "unread");
            var json = new JsonWriter();
            state.Write(json);
            Check.True(json.ToString().Contains("\"unreadFields\":[\"wires\"]"), json.ToString());
            var read = new JsonWriter();
            Read("Wires", new Game.WireSetComponent()).Write(read);
            Check.True(!read.ToString().Contains("unreadFields"), "absent when everything was read");
        }

        public static void StartUpCheckNamesEveryMissingMemberPerKind()
        {
            var holders = new List<Type>(ModuleReaders.Holders) { typeof(Edgework.Widgets) };
            TypeResolver shapes = delegate (string name) { return typeof(Cases).Assembly.GetType("Gptnt.Mod.Tests.Game." + name); };
            List<string> none = Reflect.Check(shapes, holders.ToArray());
            Check.Equal("", string.Join(" | ", none.ToArray()), "the fakes have every member the readers read");
            TypeResolver noWires = delegate (string name) { return name == "SnippableWire" ? null : shapes(name); };
            List<string> lines = Reflect.Check(noWires, holders.ToArray());
            Check.Equal(1, lines.Count, "one kind affected");
            Check.True(lines[0].StartsWith("Wires: SnippableWire.GetColor (no type SnippableWire)"), lines[0]);
        }
    }
}
