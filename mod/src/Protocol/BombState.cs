using System.Collections.Generic;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The /state document (docs/protocol.md §7) as plain objects. An adapter fills them from the
    /// game; <see cref="ToJson"/> writes exactly the shipped mod's camelCase keys. Lists that the
    /// protocol sends with null slots (Wires, Venn, WireSequence) hold null entries here too.
    /// </summary>
    public sealed class BombState
    {
        public int Seed;
        public int MaxStrikes;
        public bool IsDetonated;
        public bool IsSolved;
        public bool IsLightOn;
        /// <summary>front, back, left, right, top or bottom.</summary>
        public string BombSide = "front";
        public TimerState Timer = new TimerState();
        public List<WidgetState> Widgets = new List<WidgetState>();
        public List<ModuleState> Modules = new List<ModuleState>();
        /// <summary>One entry per strike: the name of the module that struck, in order.</summary>
        public List<string> Strikes = new List<string>();

        public string ToJson()
        {
            var json = new JsonWriter();
            json.BeginObject()
                .Field("seed", Seed)
                .Field("maxStrikes", MaxStrikes)
                .Field("isDetonated", IsDetonated)
                .Field("isSolved", IsSolved)
                .Field("isLightOn", IsLightOn)
                .Field("bombSide", BombSide);
            json.Key("timerModule");
            Timer.Write(json);
            json.Key("widgets").BeginArray();
            foreach (WidgetState widget in Widgets) widget.Write(json);
            json.EndArray();
            json.Key("modules").BeginArray();
            foreach (ModuleState module in Modules) module.Write(json);
            json.EndArray();
            json.StringArray("strikes", Strikes);
            return json.EndObject().ToString();
        }
    }

    /// <summary>The bomb clock: seconds of game time left (never negative on the wire).</summary>
    public sealed class TimerState
    {
        public double SecondsRemaining;
        public bool OnFront = true;
        public int Index;

        public void Write(JsonWriter json)
        {
            json.BeginObject()
                .Field("secondsRemaining", SecondsRemaining < 0 ? 0.0 : SecondsRemaining)
                .Field("onFront", OnFront)
                .Field("index", Index)
                .Field("name", "Timer")
                .EndObject();
        }
    }

    // ------------------------------------------------------------------------------ widgets

    /// <summary>A widget on the case; Position is top, bottom, left or right.</summary>
    public abstract class WidgetState
    {
        public string Position = "top";
        /// <summary>Protocol fields the adapter could not read from the game (sent as "unreadFields").</summary>
        public List<string> Unread = new List<string>();
        public abstract string Name { get; }
        protected abstract void WriteFields(JsonWriter json);

        public void Write(JsonWriter json)
        {
            json.BeginObject();
            WriteFields(json);
            if (Unread.Count > 0) json.StringArray("unreadFields", Unread);
            json.Field("position", Position).Field("name", Name).EndObject();
        }
    }

    public sealed class SerialNumberWidget : WidgetState
    {
        public string SerialNumber;
        public override string Name { get { return "SerialNumber"; } }
        protected override void WriteFields(JsonWriter json) { json.Field("serialNumber", SerialNumber); }
    }

    /// <summary>One holder: one D battery, or two AA batteries.</summary>
    public sealed class BatteryWidget : WidgetState
    {
        public string BatteryType = "AA";
        public int BatteriesCount = 2;
        public override string Name { get { return "Battery"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("batteryType", BatteryType).Field("batteriesCount", BatteriesCount);
        }
    }

    public sealed class IndicatorWidget : WidgetState
    {
        public string Label;
        public bool LightActivated;
        public override string Name { get { return "Indicator"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("label", Label).Field("lightActivated", LightActivated);
        }
    }

    /// <summary>A port plate; an empty list is an empty plate.</summary>
    public sealed class PortWidget : WidgetState
    {
        public List<string> PortType = new List<string>();
        public override string Name { get { return "Port"; } }
        protected override void WriteFields(JsonWriter json) { json.StringArray("portType", PortType); }
    }

    // ------------------------------------------------------------------------------ modules

    /// <summary>
    /// Fields every module shares. Index is the nearest anchor slot (0–5) on its face; InFocus is
    /// the game's own "zoomed into" flag, re-read on every refresh.
    /// </summary>
    public abstract class ModuleState
    {
        public bool OnFront = true;
        public int Index;
        public bool IsSolved;
        public bool InFocus;
        /// <summary>Protocol fields the adapter could not read from the game (sent as "unreadFields").</summary>
        public List<string> Unread = new List<string>();
        /// <summary>The protocol's module name (KTANE's ComponentTypeEnum name).</summary>
        public abstract string Name { get; }
        /// <summary>Memory, Who's on First and Wire Sequence: buttons still animating in.</summary>
        public virtual bool IsEmerging { get { return false; } }
        protected abstract void WriteFields(JsonWriter json);

        public void Write(JsonWriter json)
        {
            json.BeginObject();
            WriteFields(json);
            if (Unread.Count > 0) json.StringArray("unreadFields", Unread);
            json.Field("isSolved", IsSolved)
                .Field("inFocus", InFocus)
                .Field("onFront", OnFront)
                .Field("index", Index)
                .Field("name", Name)
                .EndObject();
        }
    }

    public sealed class Wire
    {
        public int Position;
        public bool IsCut;
        /// <summary>red, yellow, blue, black or white.</summary>
        public string Color;
    }

    public sealed class WiresModule : ModuleState
    {
        /// <summary>Six slots, null where there is no wire.</summary>
        public Wire[] Wires = new Wire[6];
        public override string Name { get { return "Wires"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Key("wires").BeginArray();
            foreach (Wire wire in Wires)
            {
                if (wire == null) { json.Null(); continue; }
                json.BeginObject().Field("position", wire.Position).Field("isCut", wire.IsCut)
                    .Field("color", wire.Color).EndObject();
            }
            json.EndArray();
        }
    }

    public sealed class BigButtonModule : ModuleState
    {
        public string ButtonColor;
        /// <summary>Abort, Detonate, Hold or Press (capitalised, as the game shows it).</summary>
        public string ButtonWord;
        public bool IsHeld;
        /// <summary>Only while held; null otherwise.</summary>
        public string StripColor;
        public override string Name { get { return "BigButton"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("buttonColor", ButtonColor).Field("buttonWord", ButtonWord)
                .Field("isHeld", IsHeld).Field("stripColor", StripColor);
        }
    }

    public sealed class KeypadKey
    {
        public string Symbol;
        /// <summary>green (correct LED lit), red (wrong) or null.</summary>
        public string Color;

        public KeypadKey(string symbol) { Symbol = symbol; }
    }

    public sealed class KeypadModule : ModuleState
    {
        public KeypadKey TopLeft, TopRight, BottomLeft, BottomRight;
        public override string Name { get { return "Keypad"; } }

        protected override void WriteFields(JsonWriter json)
        {
            WriteKey(json, "topLeft", TopLeft);
            WriteKey(json, "topRight", TopRight);
            WriteKey(json, "bottomLeft", BottomLeft);
            WriteKey(json, "bottomRight", BottomRight);
        }

        static void WriteKey(JsonWriter json, string key, KeypadKey value)
        {
            json.Key(key).BeginObject().Field("symbol", value.Symbol).Field("color", value.Color).EndObject();
        }
    }

    public sealed class SimonModule : ModuleState
    {
        /// <summary>The whole sequence (red, blue, green, yellow), not just what flashed so far.</summary>
        public List<string> BeepSequence = new List<string>();
        public int SolveProgress;
        public override string Name { get { return "Simon"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.StringArray("beepSequence", BeepSequence).Field("solveProgress", SolveProgress);
        }
    }

    public sealed class WhosOnFirstModule : ModuleState
    {
        /// <summary>Null while the buttons emerge; "" is a valid display.</summary>
        public string DisplayWord;
        public List<string> ButtonWords;
        public int Stage = 1;
        public bool IsEmerged = true;
        public override string Name { get { return "WhosOnFirst"; } }
        public override bool IsEmerging { get { return !IsEmerged; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("displayWord", DisplayWord).StringArray("buttonWords", ButtonWords)
                .Field("stage", Stage).Field("isEmerged", IsEmerged);
        }
    }

    /// <summary>The shipped mod sends Memory's numbers as strings; so do we.</summary>
    public sealed class MemoryModule : ModuleState
    {
        public string DisplayNumber;
        public List<string> ButtonNumbers;
        public int Stage = 1;
        public bool IsEmerged = true;
        public override string Name { get { return "Memory"; } }
        public override bool IsEmerging { get { return !IsEmerged; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("displayNumber", DisplayNumber).StringArray("buttonNumbers", ButtonNumbers)
                .Field("stage", Stage).Field("isEmerged", IsEmerged);
        }
    }

    /// <summary>Frequencies are the kHz suffix of 3.5xx MHz (505 = 3.505 MHz), sent as floats.</summary>
    public sealed class MorseModule : ModuleState
    {
        public string Sequence;
        public double CurrentFrequency;
        public double CorrectFrequency;
        public override string Name { get { return "Morse"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("sequence", Sequence).Field("currentFrequency", CurrentFrequency)
                .Field("correctFrequency", CorrectFrequency);
        }
    }

    public sealed class VennWire
    {
        public int Position;
        public bool IsCut;
        /// <summary>white, red, blue, "red, white", "blue, white" or "red, blue".</summary>
        public string Color;
        public bool IsLedOn;
        public bool HasStar;
    }

    public sealed class VennModule : ModuleState
    {
        public VennWire[] Wires = new VennWire[6];
        public override string Name { get { return "Venn"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Key("wires").BeginArray();
            foreach (VennWire wire in Wires)
            {
                if (wire == null) { json.Null(); continue; }
                json.BeginObject().Field("position", wire.Position).Field("isCut", wire.IsCut)
                    .Field("color", wire.Color).Field("isLedOn", wire.IsLedOn)
                    .Field("hasStar", wire.HasStar).EndObject();
            }
            json.EndArray();
        }
    }

    /// <summary>Slot i (0–11, global) belongs to panel i / 3 + 1.</summary>
    public sealed class SequenceWire
    {
        public int StartPositionNumber;
        public string EndPositionLetter;
        public string Color;
        public bool IsCut;
    }

    public sealed class WireSequenceModule : ModuleState
    {
        public int Panel = 1;
        public SequenceWire[] Wires = new SequenceWire[12];
        public bool IsEmerged = true;
        public override string Name { get { return "WireSequence"; } }
        public override bool IsEmerging { get { return !IsEmerged; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("panel", Panel).Key("wires").BeginArray();
            foreach (SequenceWire wire in Wires)
            {
                if (wire == null) { json.Null(); continue; }
                json.BeginObject().Field("startPositionNumber", wire.StartPositionNumber)
                    .Field("endPositionLetter", wire.EndPositionLetter).Field("color", wire.Color)
                    .Field("isCut", wire.IsCut).EndObject();
            }
            json.EndArray().Field("isEmerged", IsEmerged);
        }
    }

    /// <summary>0-based, (0, 0) is the top-left cell.</summary>
    public struct MazeCell
    {
        public int Row, Column;

        public MazeCell(int row, int column) { Row = row; Column = column; }

        public void Write(JsonWriter json)
        {
            json.BeginObject().Field("row", Row).Field("column", Column).EndObject();
        }
    }

    public sealed class MazeModule : ModuleState
    {
        public MazeCell SquarePosition, TrianglePosition;
        public MazeCell[] CirclePositions = new MazeCell[2];
        public override string Name { get { return "Maze"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("numRows", 6).Field("numColumns", 6);
            json.Key("squarePosition"); SquarePosition.Write(json);
            json.Key("trianglePosition"); TrianglePosition.Write(json);
            json.Key("circlePositions").BeginArray();
            foreach (MazeCell cell in CirclePositions) cell.Write(json);
            json.EndArray();
        }
    }

    public sealed class PasswordModule : ModuleState
    {
        public string CurrentWord;
        public string GoalWord;
        public override string Name { get { return "Password"; } }

        protected override void WriteFields(JsonWriter json)
        {
            json.Field("currentWord", CurrentWord).Field("goalWord", GoalWord);
        }
    }

    /// <summary>
    /// A modded module, reported as the shipped mod does: display name as name plus moduleType
    /// (its id). The Python side cannot parse these; they exist so /state never lies by omission.
    /// </summary>
    public sealed class ModdedModule : ModuleState
    {
        public string DisplayName;
        public string ModuleType;
        public override string Name { get { return DisplayName; } }
        protected override void WriteFields(JsonWriter json) { json.Field("moduleType", ModuleType); }
    }
}
