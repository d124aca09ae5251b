// Fakes of the game's module and widget types with the real shapes: the type names, member
// names, member kinds (field, property, method) and member types that GPTNT's compiled mod
// references in the real Assembly-CSharp (docs/mod.md). The state readers find members by name
// on the runtime type, so they read these exactly as they read the game's.
using System;
using System.Collections.Generic;

// Namespaced under Gptnt.Mod.Tests.Game so they stay apart from the protocol's classes of the
// same names; the readers match members by name, never by namespace.
namespace Gptnt.Mod.Tests.Game
{
    namespace UnityEngine
    {
        public class GameObject
        {
            public bool Active;
            public bool activeInHierarchy { get { return Active; } }
        }
    }

    namespace TMPro
    {
        public class TMP_Text
        {
            public string Value;
            public string text { get { return Value; } }
        }

        public class TextMeshPro : TMP_Text { }
    }

    namespace BombGame
    {
        public enum WireColor { Red, Blue, Yellow, Black, White }
        public enum ButtonColor { Red, Blue, Yellow, White }
        public enum ButtonInstruction { Abort, Detonate, Hold, Press }
        public enum BigButtonLEDColor { Red, Blue, Yellow, White }
    }

    namespace Assets.Scripts.Components.VennWire
    {
        [Flags]
        public enum VennWireColor { Red = 1, Blue = 2, White = 4 }

        public class VennWireComponent : BombComponent
        {
            public VennSnippableWire[] Wires;
            public VennSnippableWire[] ActiveWires { get { return Wires; } }
        }
    }

    public class BombComponent
    {
        bool isFocused;
        public void Focus(bool focused) { isFocused = focused; }
    }

    public class SnippableWire
    {
        public BombGame.WireColor WireColour;
        public bool Cut;
        public BombGame.WireColor GetColor() { return WireColour; }
        public bool Snipped { get { return Cut; } }
    }

    public class WireSetComponent : BombComponent
    {
        public List<SnippableWire> wires = new List<SnippableWire>();
    }

    public class ButtonComponent : BombComponent
    {
        public BombGame.ButtonColor Colour;
        public BombGame.ButtonInstruction Word;
        public BombGame.BigButtonLEDColor Strip;
        public bool Held;
        public BombGame.ButtonColor ButtonColor { get { return Colour; } }
        public BombGame.ButtonInstruction ButtonInstruction { get { return Word; } }
        public BombGame.BigButtonLEDColor IndicatorColor { get { return Strip; } }
        public bool IsHolding { get { return Held; } }
    }

    public class KeypadButton
    {
        public int ButtonIndex;
        public TMPro.TextMeshPro Text = new TMPro.TextMeshPro();
        public UnityEngine.GameObject LED_Correct = new UnityEngine.GameObject();
        public UnityEngine.GameObject LED_Wrong = new UnityEngine.GameObject();
        public string Glyph;
        public string GetValue() { return Glyph; }
    }

    public class KeypadComponent : BombComponent
    {
        public KeypadButton[] buttons;
    }

    public class SimonComponent : BombComponent
    {
        int[] currentSequence;
        int lastIndex;
        public float PlaySequenceDelay = 5f, PassSequenceDelay = 5f;
        public SimonComponent(int[] sequence, int progress) { currentSequence = sequence; lastIndex = progress; }
    }

    public class WhosOnFirstComponent : BombComponent
    {
        public KeypadButton[] Buttons;
        public TMPro.TextMeshPro DisplayText = new TMPro.TextMeshPro();
        public bool Emerged;
        public int Stage;
        public bool ButtonsEmerged { get { return Emerged; } }
        public int CurrentStage { get { return Stage; } }
    }

    public class MemoryComponent : BombComponent
    {
        public KeypadButton[] Buttons;
        public TMPro.TextMeshPro DisplayText = new TMPro.TextMeshPro();
        bool buttonsEmerged;
        public int Stage;
        public void Emerge(bool emerged) { buttonsEmerged = emerged; }
        public int CurrentStage { get { return Stage; } }
    }

    public class MorseCodeComponent : BombComponent
    {
        string chosenWord;
        public int Current, Chosen;
        public MorseCodeComponent(string word) { chosenWord = word; }
        public int CurrentFrequency { get { return Current; } }
        public int ChosenFrequency { get { return Chosen; } }
    }

    public class VennSnippableWire
    {
        public int WireIndex;
        public Assets.Scripts.Components.VennWire.VennWireColor Colour;
        public bool Led, Star, Cut;
        public Assets.Scripts.Components.VennWire.VennWireColor Color { get { return Colour; } }
        public bool IsLEDOn { get { return Led; } }
        public bool HasSymbol { get { return Star; } }
        public bool Snipped { get { return Cut; } }
    }

    public class WireSequenceWire
    {
        public BombGame.WireColor Colour;
        public bool Cut;
        public BombGame.WireColor GetColor() { return Colour; }
        public bool Snipped { get { return Cut; } }
    }

    public class WireSequenceComponent : BombComponent
    {
        public class WireConfiguration
        {
            public BombGame.WireColor Color;
            public bool IsSnipped, NoWire;
            public int Number, To;
            public WireSequenceWire Wire;
        }

        int currentPage;
        List<WireConfiguration> wireSequence;
        public bool Changing;
        public WireSequenceComponent(int page, List<WireConfiguration> sequence) { currentPage = page; wireSequence = sequence; }
        public bool IsChangingPage { get { return Changing; } }
    }

    public class MazeCell
    {
        public int X, Y;
    }

    public class InvisibleMazeCell
    {
        MazeCell cell;
        public UnityEngine.GameObject Identifier1, Identifier2;
        public InvisibleMazeCell(int x, int y) { cell = new MazeCell { X = x, Y = y }; }
    }

    public class InvisibleWallsComponent : BombComponent
    {
        public List<List<InvisibleMazeCell>> Cells = new List<List<InvisibleMazeCell>>();
        public MazeCell Current, Goal;
        public MazeCell CurrentCell { get { return Current; } }
        public MazeCell GoalCell { get { return Goal; } }
    }

    public class PasswordLayout
    {
        public string Word;
        public string GetCurrentWord() { return Word; }
    }

    public class PasswordComponent : BombComponent
    {
        PasswordLayout m_CurrentLayout;
        public string Correct;
        public PasswordComponent(string shown) { m_CurrentLayout = new PasswordLayout { Word = shown }; }
        public string CorrectWord { get { return Correct; } }
    }

    public class SerialNumber
    {
        string serialString;
        public SerialNumber(string serial) { serialString = serial; }
    }

    public class BatteryWidget
    {
        public enum BatteryTypeEnum { AA, D }
        BatteryTypeEnum batteryType;
        public BatteryWidget(BatteryTypeEnum type) { batteryType = type; }
    }

    public class IndicatorWidget
    {
        public string Text;
        public bool Lit;
        public string Label { get { return Text; } }
        public bool On { get { return Lit; } }
    }

    public class PortWidget
    {
        [Flags]
        public enum PortType { None = 0, DVI = 1, Parallel = 2, PS2 = 4, RJ45 = 8, Serial = 16, StereoRCA = 32 }
        PortType presentPorts;
        public PortWidget(PortType ports) { presentPorts = ports; }
    }
}
