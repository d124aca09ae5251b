using System;
using System.Collections;
using System.Reflection;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// Reading the game's private module state by name (docs/protocol.md §9.2). Each lookup takes
    /// candidate member names (fields or properties, any visibility, up the class hierarchy) so a
    /// renamed member in another game build degrades to a default instead of an exception.
    /// </summary>
    public static class Reflect
    {
        const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance;

        /// <summary>The first of <paramref name="names"/> that exists on the object; null if none.</summary>
        public static object Get(object target, params string[] names)
        {
            if (target == null) return null;
            foreach (string name in names)
            {
                for (Type type = target.GetType(); type != null; type = type.BaseType)
                {
                    FieldInfo field = type.GetField(name, Any | BindingFlags.DeclaredOnly);
                    if (field != null) return field.GetValue(target);
                    PropertyInfo property = type.GetProperty(name, Any | BindingFlags.DeclaredOnly);
                    if (property != null && property.GetIndexParameters().Length == 0) return property.GetValue(target, null);
                }
            }
            return null;
        }

        public static void Set(object target, string name, object value)
        {
            for (Type type = target.GetType(); type != null; type = type.BaseType)
            {
                FieldInfo field = type.GetField(name, Any | BindingFlags.DeclaredOnly);
                if (field != null) { field.SetValue(target, value); return; }
                PropertyInfo property = type.GetProperty(name, Any | BindingFlags.DeclaredOnly);
                if (property != null && property.CanWrite) { property.SetValue(target, value, null); return; }
            }
        }

        /// <summary>Call a parameterless method, e.g. KeypadButton.GetText(); null if absent.</summary>
        public static object Call(object target, string method)
        {
            if (target == null) return null;
            MethodInfo info = target.GetType().GetMethod(method, Any, null, Type.EmptyTypes, null);
            return info == null ? null : info.Invoke(target, null);
        }

        public static bool Bool(object target, params string[] names)
        {
            object value = Get(target, names);
            return value is bool && (bool)value;
        }

        public static int Int(object target, int fallback, params string[] names)
        {
            object value = Get(target, names);
            if (value == null) return fallback;
            try { return Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture); }
            catch (Exception) { return fallback; }
        }

        public static string Text(object target, params string[] names)
        {
            object value = Get(target, names);
            if (value == null) return null;
            object text = Get(value, "text");  // a TextMesh or UI text: its visible string
            return (text ?? value).ToString();
        }

        /// <summary>Any array or list as an object array (empty when absent).</summary>
        public static object[] Items(object target, params string[] names)
        {
            var list = new System.Collections.Generic.List<object>();
            IEnumerable items = Get(target, names) as IEnumerable;
            if (items != null) foreach (object item in items) list.Add(item);
            return list.ToArray();
        }
    }
}
