using System.Collections.Generic;
using Gptnt.Mod.Protocol;
using UnityEngine;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// The bomb's widgets (docs/protocol.md §7.2): kind from the widget's class, content from its
    /// fields (serialString, batteryType, presentPorts, …), and the side of the case from where
    /// the widget sits in the bomb's frame.
    /// </summary>
    public static class Edgework
    {
        static readonly Dictionary<string, string> PortNames = new Dictionary<string, string>
        {
            { "DVI", "DVI-D" }, { "Parallel", "Parallel" }, { "PS2", "PS/2" }, { "RJ45", "RJ-45" },
            { "Serial", "Serial" }, { "StereoRCA", "Stereo RCA" },
        };

        public static List<WidgetState> Read(Bomb bomb)
        {
            var widgets = new List<WidgetState>();
            foreach (Widget widget in bomb.GetComponentsInChildren<Widget>(false))
            {
                WidgetState state = Describe(widget);
                if (state == null) continue;
                state.Position = Side(bomb, widget);
                widgets.Add(state);
            }
            return widgets;
        }

        static WidgetState Describe(Widget widget)
        {
            switch (widget.GetType().Name)
            {
                case "SerialNumber":
                    return new SerialNumberWidget { SerialNumber = System.Convert.ToString(Reflect.Get(widget, "serialString", "SerialString")) };
                case "BatteryWidget":
                    {
                        string type = System.Convert.ToString(Reflect.Get(widget, "batteryType", "BatteryType"));
                        bool d = type == "D" || type == "Battery_D" || type.EndsWith("D");
                        return new BatteryWidget { BatteryType = d ? "D" : "AA", BatteriesCount = d ? 1 : 2 };
                    }
                case "IndicatorWidget":
                    return new IndicatorWidget
                    {
                        Label = System.Convert.ToString(Reflect.Get(widget, "Label", "label")),
                        LightActivated = Reflect.Bool(widget, "IsOn", "isOn"),
                    };
                case "PortWidget":
                    {
                        var plate = new PortWidget();
                        foreach (object port in Reflect.Items(widget, "presentPorts", "PresentPorts"))
                        {
                            string name;
                            plate.PortType.Add(PortNames.TryGetValue(port.ToString(), out name) ? name : port.ToString());
                        }
                        return plate;
                    }
                default:
                    return null;  // modded widgets: not part of the protocol
            }
        }

        /// <summary>top/bottom/left/right of the case, from the widget's dominant offset.</summary>
        static string Side(Bomb bomb, Widget widget)
        {
            Vector3 local = bomb.transform.InverseTransformPoint(widget.transform.position);
            if (System.Math.Abs(local.x) >= System.Math.Abs(local.z)) return local.x >= 0 ? "right" : "left";
            return local.z >= 0 ? "top" : "bottom";
        }
    }
}
