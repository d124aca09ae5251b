using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// A minimal JSON writer: objects, arrays, strings, numbers, booleans, null. Enough for the
    /// bomb state and /modules without pulling Newtonsoft into the plain part. Numbers are printed
    /// invariantly; a non-finite number is written as null (JSON has no NaN).
    /// </summary>
    public sealed class JsonWriter
    {
        readonly StringBuilder _out = new StringBuilder();
        // One entry per open container: has it got an element yet?
        readonly Stack<bool> _started = new Stack<bool>();
        bool _afterKey;

        public JsonWriter BeginObject() { Value(); _out.Append('{'); _started.Push(false); return this; }
        public JsonWriter EndObject() { _started.Pop(); _out.Append('}'); return this; }
        public JsonWriter BeginArray() { Value(); _out.Append('['); _started.Push(false); return this; }
        public JsonWriter EndArray() { _started.Pop(); _out.Append(']'); return this; }

        public JsonWriter Key(string name)
        {
            Separate();
            WriteString(name);
            _out.Append(':');
            _afterKey = true;
            return this;
        }

        public JsonWriter String(string value)
        {
            Value();
            if (value == null) _out.Append("null");
            else WriteString(value);
            return this;
        }

        public JsonWriter Number(double value)
        {
            Value();
            if (double.IsNaN(value) || double.IsInfinity(value)) _out.Append("null");
            else _out.Append(value.ToString("R", CultureInfo.InvariantCulture));
            return this;
        }

        public JsonWriter Number(int value)
        {
            Value();
            _out.Append(value.ToString(CultureInfo.InvariantCulture));
            return this;
        }

        public JsonWriter Bool(bool value) { Value(); _out.Append(value ? "true" : "false"); return this; }
        public JsonWriter Null() { Value(); _out.Append("null"); return this; }

        // Shorthands for "key": value pairs.
        public JsonWriter Field(string key, string value) { return Key(key).String(value); }
        public JsonWriter Field(string key, int value) { return Key(key).Number(value); }
        public JsonWriter Field(string key, double value) { return Key(key).Number(value); }
        public JsonWriter Field(string key, bool value) { return Key(key).Bool(value); }

        public JsonWriter StringArray(string key, IList<string> values)
        {
            Key(key);
            if (values == null) return Null();
            BeginArray();
            foreach (string value in values) String(value);
            return EndArray();
        }

        public override string ToString() { return _out.ToString(); }

        void Value()
        {
            if (_afterKey) { _afterKey = false; return; }
            Separate();
        }

        void Separate()
        {
            if (_started.Count == 0) return;
            if (_started.Peek()) _out.Append(',');
            _started.Pop();
            _started.Push(true);
        }

        void WriteString(string value)
        {
            _out.Append('"');
            foreach (char c in value)
            {
                switch (c)
                {
                    case '"': _out.Append("\\\""); break;
                    case '\\': _out.Append("\\\\"); break;
                    case '\n': _out.Append("\\n"); break;
                    case '\r': _out.Append("\\r"); break;
                    case '\t': _out.Append("\\t"); break;
                    default:
                        if (c < 0x20) _out.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else _out.Append(c);
                        break;
                }
            }
            _out.Append('"');
        }
    }
}
