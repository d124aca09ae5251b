#!/usr/bin/env bash
# Build the mod with Mono, without Unity or the game (mod/README.md, "Building here"):
#   build/gptnt-mod-host.exe    protocol core + fake game + host   (mono build/gptnt-mod-host.exe)
#   build/gptnt-mod-tests.exe   C# unit tests of parsing and packing (prints "N passed, M failed")
#   build/GptntMod.dll          protocol core + Unity adapter, against the reference stubs
#   build/api-refs.exe          lists the game members a compiled mod references (Mono.Cecil, from
#                               mono-devel; skipped without it) for tests/mod/test_api_crosscheck.py
# The Unity-facing code (src/Protocol, src/Unity) is compiled against .NET 2.0/3.5 reference
# assemblies when mono-devel provides them, so an API newer than Unity 2017's runtime fails here.
# Usage: mod/build.sh [--test]   (--test also runs the unit tests)
set -euo pipefail
cd "$(dirname "$0")"

command -v mcs >/dev/null || { echo "error: mcs not found; install Mono: apt-get install mono-mcs" >&2; exit 2; }
MCS=(mcs -langversion:7 -nologo -warnaserror+ -nowarn:414,169,649)
OUT=build
mkdir -p "$OUT/stubs"

# The .NET 3.5-era API surface Unity 2017 offers: mscorlib/System 2.0 (no System.Core needed).
API="${MONO_REFERENCE_API:-/usr/lib/mono/2.0-api}"
if [[ -f "$API/mscorlib.dll" && -f "$API/System.dll" ]]; then
    UNITY_API=(-nostdlib -noconfig "-r:$API/mscorlib.dll" "-r:$API/System.dll")
else
    echo "note: $API missing (package mono-devel); the Unity adapter is checked against Mono's default API" >&2
    UNITY_API=(-r:System.dll)
fi

"${MCS[@]}" "${UNITY_API[@]}" -target:library -out:$OUT/stubs/UnityEngine.dll stubs/UnityEngine.cs
"${MCS[@]}" "${UNITY_API[@]}" -target:library -r:$OUT/stubs/UnityEngine.dll -out:$OUT/stubs/KMFramework.dll stubs/KMFramework.cs
"${MCS[@]}" "${UNITY_API[@]}" -target:library -r:$OUT/stubs/UnityEngine.dll -out:$OUT/stubs/Assembly-CSharp.dll stubs/AssemblyCSharp.cs
"${MCS[@]}" "${UNITY_API[@]}" -target:library \
    -r:$OUT/stubs/UnityEngine.dll -r:$OUT/stubs/KMFramework.dll -r:$OUT/stubs/Assembly-CSharp.dll \
    -out:$OUT/GptntMod.dll src/Protocol/*.cs src/Unity/*.cs

CECIL="$(pkg-config --variable=Libraries cecil 2>/dev/null || true)"
if [[ -n "$CECIL" && -f "$CECIL" ]]; then
    "${MCS[@]}" -r:"$CECIL" -r:System.Core.dll -out:$OUT/api-refs.exe tools/ApiRefs.cs
else
    echo "note: Mono.Cecil not found (package mono-devel); build/api-refs.exe not built" >&2
fi

"${MCS[@]}" -r:System.dll -out:$OUT/gptnt-mod-host.exe src/Protocol/*.cs src/Fake/*.cs src/Host/*.cs
# The tests also hold the state readers (plain reflection, no Unity) to fakes of the game's types.
"${MCS[@]}" -r:System.dll -out:$OUT/gptnt-mod-tests.exe src/Protocol/*.cs src/Fake/*.cs \
    src/Unity/Reflect.cs src/Unity/ModuleReaders.cs src/Unity/Edgework.cs tests/*.cs
echo "built: $OUT/gptnt-mod-host.exe $OUT/gptnt-mod-tests.exe $OUT/GptntMod.dll"

if [[ "${1:-}" == "--test" ]]; then
    mono $OUT/gptnt-mod-tests.exe
fi
