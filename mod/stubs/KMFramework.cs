// Compile-time stand-in for the mod kit's KMFramework.dll: the members the adapter uses.
using System;
using System.Collections.Generic;
using UnityEngine;

static class KMStub { public static Exception Never() { return new NotSupportedException("reference stub"); } }

/// <summary>Marks the prefab the game instantiates once at load (a service).</summary>
public class KMService : MonoBehaviour { }

public class KMGameInfo : MonoBehaviour
{
    public enum State { Gameplay, Setup, PostGame, Transitioning, Unlock, Quitting }

    public struct KMModuleInfo
    {
        public string DisplayName;
        public string ModuleId;
        public bool IsMod;
        public bool IsNeedy;
        public KMComponentPool.ComponentTypeEnum ModuleType;
    }

    public delegate void KMStateChangeDelegate(State state);
    public delegate void KMLightsChangeDelegate(bool on);

    public KMStateChangeDelegate OnStateChange;
    public KMLightsChangeDelegate OnLightsChange;

    public List<KMModuleInfo> GetAvailableModuleInfo() { throw KMStub.Never(); }
}

public class KMBombInfo : MonoBehaviour
{
    public delegate void KMBombSolvedDelegate();

    public KMBombSolvedDelegate OnBombSolved;
    public KMBombSolvedDelegate OnBombExploded;  // the kit types both events with this delegate
}

public class KMGameCommands : MonoBehaviour
{
    public KMBomb CreateBomb(string missionId, KMGeneratorSetting generatorSettings, GameObject spawnPoint, string seed) { throw KMStub.Never(); }
    public void StartMission(KMMission mission, string seed) { throw KMStub.Never(); }
}

public class KMBomb : MonoBehaviour { }

public class KMMission : ScriptableObject
{
    public string DisplayName;
    public KMGeneratorSetting GeneratorSetting;
    public bool PacingEventsEnabled;
}

[Serializable]
public class KMGeneratorSetting
{
    public float TimeLimit;
    public int NumStrikes;
    public int TimeBeforeNeedyActivation;
    public bool FrontFaceOnly;
    public int OptionalWidgetCount;
    public List<KMComponentPool> ComponentPools;
}

[Serializable]
public class KMComponentPool
{
    [Flags]
    public enum ComponentSource { Base = 1, Mods = 2 }

    public enum ComponentTypeEnum
    {
        Empty, Timer, Wires, BigButton, Keypad, Simon, WhosOnFirst, Memory, Morse, Venn,
        WireSequence, Maze, Password, NeedyVentGas, NeedyCapacitor, NeedyKnob,
    }

    public int Count;
    public ComponentSource AllowedSources;
    public List<ComponentTypeEnum> ComponentTypes;
    public List<string> ModTypes;
}
