using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;

namespace Gptnt.Mod.Unity
{
    public enum MemberKind { Field, Property, Method }

    /// <summary>
    /// One member of a game type that the state readers read by name: declared once through
    /// <see cref="Reflect"/> with its owner type, name and kind, looked up on the runtime type of
    /// each object (any visibility, up the class hierarchy) and cached per type. A member that does
    /// not exist is not swallowed: <see cref="Reading"/> marks the protocol field it was for as
    /// unread, and <see cref="Reflect.Check"/> reports it at start-up.
    /// </summary>
    public sealed class GameMember
    {
        const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.DeclaredOnly;

        public readonly string Owner;
        public readonly string Name;
        public readonly MemberKind Kind;
        readonly Dictionary<Type, MemberInfo> _byType = new Dictionary<Type, MemberInfo>();

        internal GameMember(string owner, string name, MemberKind kind)
        {
            Owner = owner;
            Name = name;
            Kind = kind;
        }

        public override string ToString() { return Owner + "." + Name; }

        /// <summary>The member on <paramref name="type"/> or a base type; null if it has none.</summary>
        public MemberInfo Find(Type type)
        {
            MemberInfo found;
            lock (_byType)
            {
                if (_byType.TryGetValue(type, out found)) return found;
                for (Type t = type; t != null && found == null; t = t.BaseType)
                {
                    if (Kind == MemberKind.Field) found = t.GetField(Name, Any);
                    else if (Kind == MemberKind.Property) found = t.GetProperty(Name, Any);
                    else foreach (MethodInfo method in t.GetMethods(Any)) if (method.Name == Name) { found = method; break; }
                }
                _byType[type] = found;
            }
            return found;
        }

        /// <summary>Read the field or property, or call the method with <paramref name="args"/>.</summary>
        public bool TryRead(object target, out object value, params object[] args)
        {
            value = null;
            MemberInfo member = target == null ? null : Find(target.GetType());
            if (member == null) return false;
            var field = member as FieldInfo;
            var property = member as PropertyInfo;
            if (field != null) value = field.GetValue(target);
            else if (property != null) value = property.GetValue(target, null);
            else value = ((MethodInfo)member).Invoke(target, args.Length == 0 ? null : args);
            return true;
        }

        public bool TryWrite(object target, object value)
        {
            MemberInfo member = target == null ? null : Find(target.GetType());
            var field = member as FieldInfo;
            var property = member as PropertyInfo;
            if (field != null) field.SetValue(target, value);
            else if (property != null && property.CanWrite) property.SetValue(target, value, null);
            else return false;
            return true;
        }
    }

    /// <summary>A type by its full name, or null (the .NET 3.5 API has no Func).</summary>
    public delegate Type TypeResolver(string fullName);

    /// <summary>
    /// The game members read by name (docs/mod.md). Every name is declared here through
    /// <see cref="Field"/>, <see cref="Property"/> or <see cref="Method"/> with a literal owner
    /// and name, so tests/mod/test_api_crosscheck.py can hold each one to GPTNT's compiled mod.
    /// </summary>
    public static class Reflect
    {
        static readonly List<GameMember> Declared = new List<GameMember>();

        public static GameMember Field(string owner, string name) { return Declare(owner, name, MemberKind.Field); }
        public static GameMember Property(string owner, string name) { return Declare(owner, name, MemberKind.Property); }
        public static GameMember Method(string owner, string name) { return Declare(owner, name, MemberKind.Method); }

        static GameMember Declare(string owner, string name, MemberKind kind)
        {
            var member = new GameMember(owner, name, kind);
            lock (Declared) Declared.Add(member);
            return member;
        }

        /// <summary>
        /// The declared members of <paramref name="holders"/> (static classes of GameMember
        /// fields, one per module kind) that the loaded game lacks, as "holder: Owner.Name, …"
        /// lines; <paramref name="resolve"/> maps an owner type name to its type (null if absent).
        /// </summary>
        public static List<string> Check(TypeResolver resolve, params Type[] holders)
        {
            var lines = new List<string>();
            foreach (Type holder in holders)
            {
                var missing = new List<string>();
                foreach (FieldInfo field in holder.GetFields(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static))
                {
                    var member = field.GetValue(null) as GameMember;
                    if (member == null) continue;
                    Type owner = resolve(member.Owner);
                    if (owner == null) missing.Add(member + " (no type " + member.Owner + ")");
                    else if (member.Find(owner) == null) missing.Add(member.ToString());
                }
                if (missing.Count > 0) lines.Add(holder.Name + ": " + string.Join(", ", missing.ToArray()));
            }
            return lines;
        }

        /// <summary>A type by full name from the loaded assemblies (the game's, Unity's, TextMesh Pro's).</summary>
        public static Type LoadedType(string fullName)
        {
            foreach (Assembly assembly in AppDomain.CurrentDomain.GetAssemblies())
            {
                Type type = assembly.GetType(fullName, false);
                if (type != null) return type;
            }
            return null;
        }

        /// <summary>Any array or list as an object array (empty for null).</summary>
        public static object[] Items(object value)
        {
            var list = new List<object>();
            IEnumerable items = value as IEnumerable;
            if (items != null && !(value is string)) foreach (object item in items) list.Add(item);
            return list.ToArray();
        }
    }

    /// <summary>
    /// One /state reading of a module or widget: reads game members and records, under the
    /// protocol's field name, every value it could not read (the JSON's "unreadFields").
    /// </summary>
    public sealed class Reading
    {
        public readonly List<string> Unread = new List<string>();

        /// <summary>Record that <paramref name="field"/> could not be read.</summary>
        public void Mark(string field)
        {
            if (!Unread.Contains(field)) Unread.Add(field);
        }

        public object Get(GameMember member, object target, string field, params object[] args)
        {
            object value;
            try
            {
                if (member.TryRead(target, out value, args)) return value;
            }
            catch (TargetInvocationException) { }  // the game's getter threw: the field is unread
            catch (ArgumentException) { }          // another signature than declared
            Mark(field);
            return null;
        }

        public bool Bool(GameMember member, object target, string field)
        {
            object value = Get(member, target, field);
            if (value is bool) return (bool)value;
            if (value != null) Mark(field);
            return false;
        }

        public int Int(GameMember member, object target, string field)
        {
            object value = Get(member, target, field);
            if (value == null) return 0;
            try { return Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture); }
            catch (Exception) { Mark(field); return 0; }
        }

        /// <summary>An enum or string member as text (null when unread).</summary>
        public string Text(GameMember member, object target, string field, params object[] args)
        {
            object value = Get(member, target, field, args);
            return value == null ? null : value.ToString();
        }

        public string Lower(GameMember member, object target, string field)
        {
            string text = Text(member, target, field);
            return text == null ? null : text.ToLowerInvariant();
        }

        public object[] Items(GameMember member, object target, string field)
        {
            return Reflect.Items(Get(member, target, field));
        }
    }
}
