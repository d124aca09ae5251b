// api-refs.exe: what a compiled mod uses of the game's assemblies, one tab-separated line each,
// read with Mono.Cecil (mono-devel ships it). tests/mod/test_api_crosscheck.py compares the
// lines of GPTNT's compiled mod with those of our GptntMod.dll.
//   ref  <assembly> <type> <member> <field|method> <signature>   a member of Assembly-CSharp,
//        KMFramework or UnityEngine* referenced by the IL (UnityEngine's modules are one "UnityEngine")
//   type <assembly> <type>                                        a type of those assemblies referenced
//   str  <literal>                                                a string literal in any method body
//   near <literal> <type>                                         an identifier-like literal and a game type (a token,
//        a cast, a member's owner, or a literal naming the type) in the same method body, so a name
//        looked up by reflection is tied to the type it is looked up on
//   reflect <method> <literal>...                                 a call of a method of a type named
//        Reflect (our adapter's declaration of a member read by name) with its literal arguments
// Usage: mono api-refs.exe <assembly.dll>      exit 2 on a missing or unreadable file
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Mono.Cecil;
using Mono.Cecil.Cil;

static class ApiRefs
{
    static readonly string[] Game = { "Assembly-CSharp", "KMFramework", "UnityEngine" };

    static string Scope(TypeReference type)
    {
        while (type.DeclaringType != null) type = type.DeclaringType;
        string name = type.Scope == null ? "" : type.Scope.Name;
        if (name.EndsWith(".dll")) name = name.Substring(0, name.Length - 4);
        if (name.StartsWith("UnityEngine")) return "UnityEngine";
        return name;
    }

    static bool IsGame(TypeReference type)
    {
        TypeReference element = type.GetElementType();
        return element.Scope != null && !(element is GenericParameter) && Game.Contains(Scope(element));
    }

    /// <summary>A type as written in a signature: valuetype/class marked for the game's types.</summary>
    static string Name(TypeReference type)
    {
        var array = type as ArrayType;
        if (array != null) return Name(array.ElementType) + "[]";
        var byRef = type as ByReferenceType;
        if (byRef != null) return Name(byRef.ElementType) + "&";
        var generic = type as GenericInstanceType;
        if (generic != null)
            return Name(generic.ElementType) + "<" + string.Join(",", generic.GenericArguments.Select(Name).ToArray()) + ">";
        var parameter = type as GenericParameter;
        if (parameter != null) return (parameter.Type == GenericParameterType.Method ? "!!" : "!") + parameter.Position;
        string name = type.FullName;
        if (IsGame(type)) name = (type.IsValueType ? "valuetype " : "class ") + name;
        return name;
    }

    static string Signature(MethodReference method)
    {
        return (method.HasThis ? "instance " : "static ") + Name(method.ReturnType) +
            (method.HasGenericParameters ? "<" + method.GenericParameters.Count + ">" : "") +
            "(" + string.Join(",", method.Parameters.Select(p => Name(p.ParameterType)).ToArray()) + ")";
    }

    static bool IsIdentifier(string text)
    {
        return text.Length > 0 && (char.IsLetter(text[0]) || text[0] == '_') &&
            text.All(c => char.IsLetterOrDigit(c) || c == '_');
    }

    static string Clean(string text)
    {
        return text.Replace("\\", "\\\\").Replace("\t", "\\t").Replace("\n", "\\n").Replace("\r", "\\r");
    }

    static int Main(string[] args)
    {
        if (args.Length != 1 || !File.Exists(args[0]))
        {
            Console.Error.WriteLine("usage: api-refs.exe <assembly.dll> (the file must exist)");
            return 2;
        }
        ModuleDefinition module;
        try { module = ModuleDefinition.ReadModule(args[0]); }
        catch (Exception e) { Console.Error.WriteLine("error: cannot read " + args[0] + ": " + e.Message); return 2; }

        var lines = new SortedSet<string>(StringComparer.Ordinal);
        foreach (TypeReference type in module.GetTypeReferences())
            if (IsGame(type)) lines.Add("type\t" + Scope(type) + "\t" + type.FullName);
        foreach (MemberReference member in module.GetMemberReferences())
        {
            TypeReference owner = member.DeclaringType.GetElementType();
            if (!IsGame(owner)) continue;
            var field = member as FieldReference;
            var method = member as MethodReference;
            string kind = field != null ? "field" : "method";
            string signature = field != null ? Name(field.FieldType) : Signature(method);
            lines.Add("ref\t" + Scope(owner) + "\t" + owner.FullName + "\t" + member.Name + "\t" + kind + "\t" + signature);
        }
        foreach (TypeDefinition type in module.GetTypes())
            foreach (MethodDefinition method in type.Methods)
            {
                if (!method.HasBody) continue;
                var pending = new List<string>();
                var literals = new HashSet<string>(StringComparer.Ordinal);
                var near = new HashSet<string>(StringComparer.Ordinal);
                foreach (Instruction instruction in method.Body.Instructions)
                {
                    var typeOperand = instruction.Operand as TypeReference;
                    var memberOperand = instruction.Operand as MemberReference;
                    if (typeOperand != null && IsGame(typeOperand.GetElementType()))
                        near.Add(typeOperand.GetElementType().FullName);
                    else if (memberOperand != null && !(memberOperand is TypeReference) &&
                             IsGame(memberOperand.DeclaringType.GetElementType()))
                        near.Add(memberOperand.DeclaringType.GetElementType().FullName);
                    if (instruction.OpCode == OpCodes.Ldstr)
                    {
                        string literal = (string)instruction.Operand;
                        lines.Add("str\t" + Clean(literal));
                        literals.Add(literal);
                        pending.Add(literal);
                    }
                    else if (instruction.OpCode == OpCodes.Call || instruction.OpCode == OpCodes.Callvirt || instruction.OpCode == OpCodes.Newobj)
                    {
                        var callee = (MethodReference)instruction.Operand;
                        if (callee.DeclaringType.Name == "Reflect" && pending.Count > 0)
                            lines.Add("reflect\t" + callee.Name + "\t" + string.Join("\t", pending.Select(Clean).ToArray()));
                        pending.Clear();
                    }
                }
                near.UnionWith(literals);  // a type found by its name, e.g. a lookup of "PortWidget"
                foreach (string literal in literals.Where(IsIdentifier))
                    foreach (string other in near)
                        if (other != literal) lines.Add("near\t" + Clean(literal) + "\t" + Clean(other));
            }
        foreach (string line in lines) Console.WriteLine(line);
        return 0;
    }
}
