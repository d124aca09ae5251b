using Gptnt.Mod.Protocol;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// The bomb's widgets (docs/protocol.md §7.2), as the game holds them: the kind from the
    /// widget's class, the content from its members, and the side of the case from the name of the
    /// widget's parent (the case's widget areas are named TopFaces, BottomFaces, LeftFaces,
    /// RightFaces). The adapter lists them with Bomb.WidgetManager.GetWidgets().
    /// </summary>
    public static class Edgework
    {
        public static class Widgets
        {
            public static readonly GameMember Serial = Reflect.Field("SerialNumber", "serialString");
            public static readonly GameMember Battery = Reflect.Field("BatteryWidget", "batteryType");
            public static readonly GameMember Label = Reflect.Property("IndicatorWidget", "Label");
            public static readonly GameMember On = Reflect.Property("IndicatorWidget", "On");
            public static readonly GameMember Ports = Reflect.Field("PortWidget", "presentPorts");
        }

        /// <summary>PortWidget.PortType is a flags enum: each bit one port of the plate.</summary>
        static readonly int[] PortBits = { 1, 2, 4, 8, 16, 32 };
        static readonly string[] PortNames = { "DVI-D", "Parallel", "PS/2", "RJ-45", "Serial", "Stereo RCA" };

        /// <summary>The widget's state, or null for a modded widget (not part of the protocol).</summary>
        public static Protocol.WidgetState Describe(object widget, string parentName)
        {
            var reading = new Reading();
            Protocol.WidgetState state;
            switch (widget.GetType().Name)
            {
                case "SerialNumber":
                    state = new Protocol.SerialNumberWidget { SerialNumber = reading.Text(Widgets.Serial, widget, "serialNumber") };
                    break;
                case "BatteryWidget":
                    {
                        // BatteryTypeEnum: 0 is the holder of two AA batteries, anything else one D.
                        bool d = reading.Int(Widgets.Battery, widget, "batteryType") != 0;
                        state = new Protocol.BatteryWidget { BatteryType = d ? "D" : "AA", BatteriesCount = d ? 1 : 2 };
                        break;
                    }
                case "IndicatorWidget":
                    state = new Protocol.IndicatorWidget
                    {
                        Label = reading.Text(Widgets.Label, widget, "label"),
                        LightActivated = reading.Bool(Widgets.On, widget, "lightActivated"),
                    };
                    break;
                case "PortWidget":
                    {
                        var plate = new Protocol.PortWidget();
                        int ports = reading.Int(Widgets.Ports, widget, "portType");
                        for (int i = 0; i < PortBits.Length; i++)
                            if ((ports & PortBits[i]) != 0) plate.PortType.Add(PortNames[i]);
                        state = plate;
                        break;
                    }
                default:
                    return null;
            }
            string side = parentName == null ? "" : parentName.Replace("Faces", "").ToLowerInvariant();
            if (side == "top" || side == "bottom" || side == "left" || side == "right") state.Position = side;
            else reading.Mark("position");
            state.Unread = reading.Unread;
            return state;
        }
    }
}
