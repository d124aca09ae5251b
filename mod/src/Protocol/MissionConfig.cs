using System.Collections.Generic;
using System.Collections.Specialized;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The /startmission parameters (docs/protocol.md §2.3), parsed invariantly and validated with
    /// the bounds of gptnt's MissionConfig, so the mod, the simulator and the client accept and
    /// refuse the same requests.
    ///
    /// Refusals keep the shipped mod's body texts: a missing or unparsable parameter is
    /// "Error: …", a value out of bounds is its "Please enter …" sentence followed by our reason
    /// in parentheses. Both with status 400 (the shipped mod said 200).
    /// </summary>
    public sealed class MissionConfig
    {
        public string Seed;
        public int SeedNumber;
        public int TimeLimit;
        public int NumStrikes;
        public int NeedyTime;
        public bool IsFront;
        public int OptWidgets;
        public List<string> Components = new List<string>();
        public double TimeScale;
        public int TimeStepSize;
        public string SessionId;

        public const string EnterSeed = "Please enter valid seed. e.g. seed=123";
        public const string EnterTimeLimit = "Please enter a valid time limit. e.g. timeLimit=90";
        public const string EnterStrikes = "Please enter a valid number of strikes. e.g. numStrikes=3";
        public const string EnterNeedyTime =
            "Please enter valid time delay for needy module activation. e.g. needyTime=30";
        public const string EnterWidgets =
            "Please enter a valid number of optional widgets. e.g. optWidgets=3";
        public const string EnterComponents =
            "Please enter a valid list of components to be present on the bomb. e.g. components=Wires,BigButton";

        /// <summary>KTANE's vanilla ComponentTypeEnum names (case-sensitive), solvable ones first.</summary>
        public static readonly string[] VanillaModules =
        {
            "Wires", "BigButton", "Keypad", "Simon", "WhosOnFirst", "Memory", "Morse", "Venn",
            "WireSequence", "Maze", "Password",
        };

        public static readonly string[] NeedyModules = { "NeedyVentGas", "NeedyCapacitor", "NeedyKnob" };

        /// <summary>Parse and validate; throws <see cref="RefusedException"/> (400) naming the parameter.</summary>
        public static MissionConfig FromQuery(NameValueCollection query)
        {
            var config = new MissionConfig();
            config.Seed = Required(query, "seed");
            config.TimeLimit = RequiredInt(query, "timeLimit");
            config.NumStrikes = RequiredInt(query, "numStrikes");
            config.NeedyTime = RequiredInt(query, "needyTime");
            string front = Required(query, "isFront");
            bool? isFront = Invariant.ParseBool(front);
            if (isFront == null) throw Error("isFront", front, "true or false");
            config.IsFront = isFront.Value;
            config.OptWidgets = RequiredInt(query, "optWidgets");
            string components = Required(query, "components");
            string scale = Required(query, "timeScale");
            double? timeScale = Invariant.ParseDouble(scale);
            if (timeScale == null) throw Error("timeScale", scale, "a number such as 1");
            config.TimeScale = timeScale.Value;
            config.TimeStepSize = RequiredInt(query, "timeStepSize");
            config.SessionId = query["sessionId"];

            int? seed = Invariant.ParseInt(config.Seed);
            if (config.Seed.Trim().Length == 0 || seed == null || seed.Value < 0)
                throw Refuse(EnterSeed, "seed must be a whole number >= 0");
            config.SeedNumber = seed.Value;
            if (config.TimeLimit <= 0)
                throw Refuse(EnterTimeLimit, "timeLimit must be > 0 seconds");
            if (config.NumStrikes < 1 || config.NumStrikes > 5)
                throw Refuse(EnterStrikes, "numStrikes must be 1 to 5");
            if (config.NeedyTime <= 0 || config.NeedyTime > config.TimeLimit)
                throw Refuse(EnterNeedyTime, "needyTime must be > 0 and not exceed timeLimit");
            if (config.OptWidgets < 0 || config.OptWidgets > 10)
                throw Refuse(EnterWidgets, "optWidgets must be 0 to 10");
            foreach (string item in components.Split(','))
            {
                string name = item.Trim();
                if (name.Length == 0)
                    throw Refuse(EnterComponents, "components has an empty entry");
                config.Components.Add(name);
            }
            if (config.Components.Count > 11)
                throw Refuse(EnterComponents, "components must list 1 to 11 modules");
            if (config.TimeScale < 0.1 || config.TimeScale > 10)
                throw new RefusedException(400, "Error: /startmission: timeScale must be 0.1 to 10");
            if (config.TimeStepSize <= 0)
                throw new RefusedException(400, "Error: /startmission: timeStepSize must be > 0 milliseconds");
            return config;
        }

        /// <summary>Is the name a vanilla module or needy (anything else would be a mod's id)?</summary>
        public static bool IsVanilla(string name)
        {
            return System.Array.IndexOf(VanillaModules, name) >= 0 || System.Array.IndexOf(NeedyModules, name) >= 0;
        }

        static string Required(NameValueCollection query, string key)
        {
            string value = query[key];
            if (value == null)
                throw new RefusedException(400, "Error: /startmission: missing query parameter " + key);
            return value;
        }

        static int RequiredInt(NameValueCollection query, string key)
        {
            string text = Required(query, key);
            int? value = Invariant.ParseInt(text);
            if (value == null) throw Error(key, text, "a whole number");
            return value.Value;
        }

        static RefusedException Error(string key, string text, string expected)
        {
            return new RefusedException(400,
                "Error: query parameter " + key + "='" + text + "' is not " + expected);
        }

        static RefusedException Refuse(string sentence, string reason)
        {
            return new RefusedException(400, sentence + " (" + reason + ")");
        }
    }
}
