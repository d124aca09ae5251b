using System;
using System.Globalization;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// Every number that crosses the wire is parsed and printed with the invariant culture. The
    /// shipped mod used the machine's culture, so on a decimal-comma locale x_pos=0.5 became 5
    /// (docs/protocol.md §10.4); nothing here depends on the locale the game runs under.
    /// </summary>
    public static class Invariant
    {
        static readonly CultureInfo Culture = CultureInfo.InvariantCulture;

        /// <summary>A whole number; null when the text is not one.</summary>
        public static int? ParseInt(string text)
        {
            if (text == null) return null;
            int value;
            if (int.TryParse(text.Trim(), NumberStyles.AllowLeadingSign, Culture, out value))
                return value;
            return null;
        }

        /// <summary>A finite decimal number (exponent allowed); null otherwise.</summary>
        public static double? ParseDouble(string text)
        {
            if (text == null) return null;
            double value;
            const NumberStyles style = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint
                | NumberStyles.AllowExponent;
            if (!double.TryParse(text.Trim(), style, Culture, out value)) return null;
            if (double.IsNaN(value) || double.IsInfinity(value)) return null;
            return value;
        }

        /// <summary>true/false in any case, as .NET's bool.Parse reads them.</summary>
        public static bool? ParseBool(string text)
        {
            if (text == null) return null;
            string lowered = text.Trim().ToLowerInvariant();
            if (lowered == "true") return true;
            if (lowered == "false") return false;
            return null;
        }

        /// <summary>A number as .NET prints it by default (1, 0.5, 3000), never with a comma.</summary>
        public static string Format(double value)
        {
            return value.ToString("R", Culture);
        }

        public static string Format(int value)
        {
            return value.ToString(Culture);
        }
    }
}
