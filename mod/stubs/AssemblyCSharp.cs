// Compile-time stand-in for the game's Assembly-CSharp.dll: only what the adapter touches
// directly. Module internals are read by reflection (mod/src/Unity/ModuleReaders.cs), by name.
using System;
using System.Collections.Generic;
using UnityEngine;

static class GameStub { public static Exception Never() { return new NotSupportedException("reference stub"); } }

namespace Assets.Scripts.Missions
{
    public enum ComponentTypeEnum
    {
        Empty, Timer, Wires, BigButton, Keypad, Simon, WhosOnFirst, Memory, Morse, Venn,
        WireSequence, Maze, Password, NeedyVentGas, NeedyCapacitor, NeedyKnob, Mod, NeedyMod,
    }
}

public class KTInputManager : MonoBehaviour
{
    public static KTInputManager Instance { get { throw GameStub.Never(); } }
    public SelectableManager SelectableManager { get { throw GameStub.Never(); } }
    public void EnableInteraction() { throw GameStub.Never(); }
}

public class SelectableManager : MonoBehaviour
{
    public void Select(Selectable selectable, bool wasDirectlySelected) { throw GameStub.Never(); }
    public void HandleInteract() { throw GameStub.Never(); }
    public void HandleCancel() { throw GameStub.Never(); }
    public void HandleFaceSelection() { throw GameStub.Never(); }
    public void UnlockSelection() { throw GameStub.Never(); }
    public FloatingHoldable GetCurrentFloatingHoldable() { throw GameStub.Never(); }
    public Transform GetBaseHeldObjectTransform() { throw GameStub.Never(); }
    public void SetZSpin(float spin) { throw GameStub.Never(); }
    public void SetControlsRotation(Quaternion rotation) { throw GameStub.Never(); }
    public Selectable GetCurrentParent() { throw GameStub.Never(); }
}

public class Selectable : MonoBehaviour
{
    public Selectable Parent;
    public Selectable[] Children;
    public bool FocusOnInteraction;
    public float FocusDistance;
    public bool HandleInteract() { throw GameStub.Never(); }
    public void HandleSelect(bool playSound) { throw GameStub.Never(); }
    public void HandleDeselect(Selectable newSelectable) { throw GameStub.Never(); }
    public void OnInteractEnded() { throw GameStub.Never(); }
    public void SetHighlight(bool active) { throw GameStub.Never(); }
}

public class SelectableArea : MonoBehaviour
{
    public Selectable Selectable;
}

public class FloatingHoldable : MonoBehaviour
{
    public void Focus(Transform target, float focusDistance, bool moveCamera, bool moveHoldable, float duration) { throw GameStub.Never(); }
    public Action<GameObject> OnFocusChild;
}

public class TimerComponent : MonoBehaviour
{
    public float TimeRemaining;
}

/// <summary>A module's strike event: the game calls it with the module that struck.</summary>
public delegate bool StrikeEvent(BombComponent source);

public class BombComponent : MonoBehaviour
{
    public StrikeEvent OnStrike;
    public Assets.Scripts.Missions.ComponentTypeEnum ComponentType;
    public bool IsSolved;
    public Bomb Bomb;
    public string GetModuleDisplayName() { throw GameStub.Never(); }
}

public class Bomb : MonoBehaviour
{
    public List<BombComponent> BombComponents;
    /// <summary>Faces[0] is the front, Faces[1] the rear; each holds its six module anchors.</summary>
    public List<BombFace> Faces;
    public WidgetManager WidgetManager;
    public StrikeIndicator StrikeIndicator;
    public int NumStrikes;
    public int NumStrikesToLose;
    public TimerComponent GetTimer() { throw GameStub.Never(); }
    public void Detonate() { throw GameStub.Never(); }
}

public class BombFace : MonoBehaviour
{
    public List<Transform> Anchors;
}

/// <summary>Base of the edgework widgets (serial number, batteries, indicators, ports).</summary>
public class Widget : MonoBehaviour { }

public class WidgetManager : MonoBehaviour
{
    public List<Widget> GetWidgets() { throw GameStub.Never(); }
}

/// <summary>The timer's strike lights; it blinks them while a strike is shown.</summary>
public class StrikeIndicator : MonoBehaviour
{
    public Color RedColour;
}

/// <summary>Base of the game's own input handlers (mouse, gamepad, VR).</summary>
public class AbstractControls : MonoBehaviour { }

public class SceneManager : MonoBehaviour
{
    public static SceneManager Instance { get { throw GameStub.Never(); } }
    public void ReturnToSetupState() { throw GameStub.Never(); }
}
