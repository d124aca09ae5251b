using System;
using System.Collections.Generic;
using Assets.Scripts.Missions;
using Gptnt.Mod.Protocol;
using UnityEngine;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// <see cref="IGameAdapter"/> over the real game: KMFramework for what the mod kit offers
    /// (scene and lights events, bomb solved/exploded, starting a mission from a generator
    /// setting, the module list), the game's own classes for the rest (the held bomb, selection,
    /// zoom, rotation, module internals). Everything runs on Unity's main thread; the controller
    /// guarantees it.
    /// </summary>
    public sealed class UnityGame : IGameAdapter
    {
        const int InteractableLayer = 11;  // KTANE's layer of clickable colliders
        const string SmallBombParent = "BasicRectangleBomb(Clone)";
        static readonly string[] Excluded = { "StatusLightParent" };

        /// <summary>Game members the adapter reads or sets by name (checked at start-up, docs/mod.md).</summary>
        public static class Members
        {
            public static readonly GameMember PlayDelay = Reflect.Field("SimonComponent", "PlaySequenceDelay");
            public static readonly GameMember PassDelay = Reflect.Field("SimonComponent", "PassSequenceDelay");
            /// <summary>The coroutine Simon Says replays its sequence with (Unity starts it by name).</summary>
            public static readonly GameMember Replay = Reflect.Method("SimonComponent", "PlaySequence");
            public static readonly GameMember IndicatorsOn = Reflect.Method("StrikeIndicator", "SetAllIndicatorsOn");
            // evidence: BombComponent's own pass routine (status light, solve count, bomb-solved
            // event), the one Twitch Plays' force-solve calls; GPTNT's mod calls KMBombModule.HandlePass
            public static readonly GameMember HandlePass = Reflect.Method("BombComponent", "HandlePass");
        }

        sealed class Target : ITarget
        {
            public Selectable Selectable;
            public string Name { get { return Selectable.name; } }
            public bool IsModule { get { return Selectable.FocusOnInteraction; } }
        }

        readonly KMGameInfo _info;
        readonly KMBombInfo _bombInfo;
        readonly KMGameCommands _commands;
        readonly Cameras _cameras;
        readonly int _width, _height;
        IGameEvents _events;
        Bomb _bomb;
        Bomb _hooked;  // the bomb whose strike events we listen to (once per bomb)
        Selectable _zoomedInto;
        GameObject _spawn;  // where KMGameCommands.CreateBomb puts the bomb
        int _tilt, _side, _strikes;
        bool _rear;  // the held face whose modules can be selected

        public UnityGame(KMGameInfo info, KMBombInfo bombInfo, KMGameCommands commands, Cameras cameras, int width, int height)
        {
            _info = info;
            _bombInfo = bombInfo;
            _commands = commands;
            _cameras = cameras;
            _width = width;
            _height = height;
        }

        public void Attach(IGameEvents events)
        {
            _events = events;
            _info.OnStateChange += delegate (KMGameInfo.State state)
            {
                if (state != KMGameInfo.State.Gameplay) { _bomb = null; _zoomedInto = null; }
                if (state == KMGameInfo.State.Setup) GameControls(true);
                _events.SceneChanged((SceneState)Enum.Parse(typeof(SceneState), state.ToString()));
            };
            _info.OnLightsChange += delegate (bool on)
            {
                if (on) HookStrikes();
                _events.LightsChanged(on);
            };
            _bombInfo.OnBombExploded += delegate { _events.BombExploded(); };
            _bombInfo.OnBombSolved += delegate { _events.BombSolved(); };
        }

        public int FrameWidth { get { return _width; } }
        public int FrameHeight { get { return _height; } }

        public float TimeScale
        {
            get { return Time.timeScale; }
            set { Time.timeScale = value; }
        }

        static SelectableManager Selection { get { return KTInputManager.Instance.SelectableManager; } }

        Bomb CurrentBomb
        {
            get
            {
                if (_bomb == null) _bomb = UnityEngine.Object.FindObjectOfType<Bomb>();
                return _bomb;
            }
        }

        // ------------------------------------------------------------------ missions

        public void StartMission(MissionConfig mission)
        {
            var setting = new KMGeneratorSetting
            {
                TimeLimit = mission.TimeLimit,
                NumStrikes = mission.NumStrikes,
                TimeBeforeNeedyActivation = mission.NeedyTime,
                FrontFaceOnly = mission.IsFront,
                OptionalWidgetCount = mission.OptWidgets,
                ComponentPools = new List<KMComponentPool>(),
            };
            foreach (string name in mission.Components)
            {
                var pool = new KMComponentPool
                {
                    Count = 1,
                    ComponentTypes = new List<KMComponentPool.ComponentTypeEnum>(),
                    ModTypes = new List<string>(),
                };
                if (MissionConfig.IsVanilla(name))
                {
                    pool.AllowedSources = KMComponentPool.ComponentSource.Base;
                    pool.ComponentTypes.Add((KMComponentPool.ComponentTypeEnum)Enum.Parse(typeof(KMComponentPool.ComponentTypeEnum), name));
                }
                else
                {
                    pool.AllowedSources = KMComponentPool.ComponentSource.Mods;
                    pool.ModTypes.Add(name);  // a modded module id
                }
                setting.ComponentPools.Add(pool);
            }
            KMMission kit = ScriptableObject.CreateInstance<KMMission>();
            kit.DisplayName = "GPTNT";
            kit.GeneratorSetting = setting;
            kit.PacingEventsEnabled = false;
            _bomb = null;
            _zoomedInto = null;
            if (_spawn == null) _spawn = new GameObject("GptntBombSpawn");
            // As GPTNT's mod: the bomb is created from the setting first, then the mission starts.
            _commands.CreateBomb(null, setting, _spawn, mission.Seed);
            _commands.StartMission(kit, mission.Seed);
        }

        public void ReturnToSetup()
        {
            SceneManager.Instance.ReturnToSetupState();
        }

        /// <summary>Strike events name the module; hooked once per bomb when the lights come on.</summary>
        void HookStrikes()
        {
            Bomb bomb = CurrentBomb;
            if (bomb == null || bomb == _hooked) return;
            _hooked = bomb;
            _strikes = 0;
            foreach (BombComponent component in bomb.BombComponents)
            {
                string name = component.ComponentType == ComponentTypeEnum.Mod
                    ? component.GetModuleDisplayName() : component.ComponentType.ToString();
                component.OnStrike += delegate (BombComponent source)
                {
                    _events.Strike(name);
                    if (++_strikes >= 2) StopStrikeBlinking(bomb);
                    if (source != null && source.ComponentType == ComponentTypeEnum.Simon) RestartSimon(source);
                    return false;
                };
            }
        }

        /// <summary>
        /// The game blinks the strike lights from the second strike on; the mod stops the blinking
        /// and lights them steadily (the paper's cosmetic fix), as GPTNT's mod does.
        /// </summary>
        static void StopStrikeBlinking(Bomb bomb)
        {
            StrikeIndicator indicator = bomb.StrikeIndicator;
            if (indicator == null) return;
            indicator.StopAllCoroutines();
            Call(Members.IndicatorsOn, indicator, indicator.RedColour);
        }

        /// <summary>
        /// Call a game method read by name; a missing one does nothing here (the start-up check
        /// logged it) and one that throws does not break the game's own event that called us.
        /// </summary>
        static void Call(GameMember method, object target, params object[] args)
        {
            new Reading().Get(method, target, method.Name, args);
        }

        /// <summary>
        /// Disable (or re-enable) every AbstractControls, the game's own input, so it cannot
        /// overwrite the rotation the mod sets; re-enabled when the game returns to the setup room.
        /// </summary>
        static void GameControls(bool enabled)
        {
            foreach (AbstractControls controls in Resources.FindObjectsOfTypeAll<AbstractControls>())
                if (controls != null) controls.gameObject.SetActive(enabled);
        }

        public void PickUpBomb()
        {
            Bomb bomb = CurrentBomb;
            if (bomb == null) return;
            Selectable held = bomb.GetComponent<Selectable>();
            GameControls(false);
            _rear = false;
            held.HandleSelect(true);
            Selection.Select(held, true);
            Selection.HandleInteract();
            held.OnInteractEnded();
            SetBombRotation(0, 0);
        }

        public void Detonate()
        {
            if (CurrentBomb != null) CurrentBomb.Detonate();
        }

        public string ForceSolve(int moduleIndex)
        {
            BombComponent component = Solvable()[moduleIndex];
            // The game's own pass path: status light, solve count and the bomb-solved event.
            Call(Members.HandlePass, component);
            return component.name;
        }

        public IList<ModuleListing> ListModules()
        {
            var listing = new List<ModuleListing>();
            List<KMGameInfo.KMModuleInfo> modules = _info.GetAvailableModuleInfo();
            if (modules == null) return listing;
            foreach (KMGameInfo.KMModuleInfo module in modules)
                if (!module.IsNeedy)
                    listing.Add(new ModuleListing { Id = module.ModuleId, DisplayName = module.DisplayName, IsMod = module.IsMod });
            return listing;
        }

        // ------------------------------------------------------------------ input

        public ITarget HitTest(double x, double yFromBottom)
        {
            Camera camera = Camera.main;
            if (camera == null) return null;
            var point = new Vector3((float)(x * Screen.width), (float)(yFromBottom * Screen.height), camera.nearClipPlane);
            RaycastHit hit;
            if (!Physics.Raycast(camera.ScreenPointToRay(point), out hit, Mathf.Infinity, 1 << InteractableLayer)) return null;
            Transform parent = hit.collider.transform.parent;
            Selectable selectable = parent == null ? null : parent.GetComponent<Selectable>();
            if (selectable == null)
            {
                SelectableArea area = hit.collider.GetComponent<SelectableArea>();
                selectable = area == null ? null : area.Selectable;
            }
            return selectable == null ? null : new Target { Selectable = selectable };
        }

        public string FocusedModule
        {
            get { return _zoomedInto == null ? null : _zoomedInto.name; }
        }

        public void ZoomIn(ITarget module)
        {
            Selectable selectable = ((Target)module).Selectable;
            FloatingHoldable holdable = Selection.GetCurrentFloatingHoldable();
            Selection.UnlockSelection();
            KTInputManager.Instance.EnableInteraction();
            Selection.Select(selectable, false);
            Selection.HandleFaceSelection();
            if (holdable != null)
            {
                holdable.Focus(selectable.transform, selectable.FocusDistance, true, false, 0f);
                if (holdable.OnFocusChild != null) holdable.OnFocusChild(selectable.gameObject);
            }
            selectable.HandleInteract();
            Selection.HandleInteract();
            _zoomedInto = selectable;
            BombComponent component = selectable.GetComponent<BombComponent>();
            if (component != null && component.ComponentType == ComponentTypeEnum.Simon) RestartSimon(component);
        }

        public void ZoomOut()
        {
            if (_zoomedInto == null) return;
            _zoomedInto.HandleDeselect(null);
            Selection.HandleCancel();
            _zoomedInto = null;
        }

        public void Press(ITarget element)
        {
            Selectable selectable = ((Target)element).Selectable;
            BombComponent parent = selectable.Parent == null ? null : selectable.Parent.GetComponent<BombComponent>();
            if (parent != null && parent.ComponentType == ComponentTypeEnum.Simon)
                Members.PlayDelay.TryWrite(parent, 5f);  // §6.3: a press holds the replay off for 5 s
            selectable.HandleInteract();
            selectable.SetHighlight(false);
        }

        public void Release(ITarget element)
        {
            ((Target)element).Selectable.OnInteractEnded();
        }

        /// <summary>
        /// Simon Says with the paper's 1 s pauses (before a replay and after a correct stage, from
        /// 5 s), its sequence restarted from the first flash (§6.3, paper C.1.3).
        /// </summary>
        static void RestartSimon(BombComponent simon)
        {
            Members.PlayDelay.TryWrite(simon, 1f);
            Members.PassDelay.TryWrite(simon, 1f);
            simon.StopAllCoroutines();
            simon.StartCoroutine(Members.Replay.Name, 1f);
        }

        /// <summary>
        /// Turn the held bomb: the game's controls are off (they would overwrite it), the held face
        /// is re-applied as the selection's z-spin (0 front, 180 rear) and the game re-selects the
        /// face, so clicks reach the modules of the side now facing the camera.
        /// </summary>
        public void SetBombRotation(int tiltDegrees, int sideDegrees)
        {
            _tilt = tiltDegrees;
            _side = sideDegrees;
            GameControls(false);
            Transform baseline = Selection.GetBaseHeldObjectTransform();
            if (baseline == null) return;
            Selection.SetZSpin(_rear ? 180f : 0f);
            Selection.SetControlsRotation(baseline.rotation * Quaternion.Euler(tiltDegrees, 0f, sideDegrees));
            Selection.HandleFaceSelection();
        }

        public void SelectFace(bool rear)
        {
            _rear = rear;
            Selection.SetZSpin(rear ? 180f : 0f);
            Selection.HandleFaceSelection();
        }

        public ITarget ModuleTarget(int moduleIndex)
        {
            Selectable selectable = Solvable()[moduleIndex].GetComponent<Selectable>();
            return selectable == null ? null : new Target { Selectable = selectable };
        }

        // ------------------------------------------------------------------ pictures

        /// <summary>What the segmentation colours, in order (docs/protocol.md §3.3).</summary>
        public IList<ITarget> ActiveTargets()
        {
            var targets = new List<ITarget>();
            Bomb bomb = CurrentBomb;
            Selectable parent = Selection.GetCurrentParent();
            if (bomb == null || parent == null || parent.name == SmallBombParent) return targets;
            if (parent.name == "FrontFace" || parent.name == "RearFace")
            {
                if (_tilt != 0 || (_side != 0 && _side != 180)) return targets;
                foreach (BombComponent component in bomb.BombComponents)
                {
                    ComponentTypeEnum type = component.ComponentType;
                    if (type == ComponentTypeEnum.Empty || type == ComponentTypeEnum.Timer) continue;
                    if (OnFront(bomb, component) != (_side == 0)) continue;
                    Selectable selectable = component.GetComponent<Selectable>();
                    if (selectable != null) targets.Add(new Target { Selectable = selectable });
                }
                return targets;
            }
            // Zoomed into a module: the active Selectables under it, its own (the first) dropped.
            Selectable[] under = parent.gameObject.GetComponentsInChildren<Selectable>();
            for (int i = 1; i < under.Length; i++)
                if (under[i] != null && Array.IndexOf(Excluded, under[i].name) < 0)
                    targets.Add(new Target { Selectable = under[i] });
            return targets;
        }

        public byte[] CaptureFrame()
        {
            return _cameras.CaptureFrame();
        }

        public byte[] RenderMask(IList<ITarget> targets, byte[][] colors)
        {
            List<GameObject> objects = MaskObjects(targets);
            // Complicated Wires colour each wire's graphics: more objects than targets, one colour each.
            if (objects.Count != targets.Count) colors = SegmentationPalette.Colors(objects.Count);
            return _cameras.RenderMask(objects, colors, Excluded);
        }

        /// <summary>
        /// What the mask colours for the targets (docs/protocol.md §3.3, as GPTNT's mod does): The
        /// Button's selectable (named "Button") is replaced by its first child, the cap; Complicated
        /// Wires' wire selectables (named VennWire…) by the graphics under the last six children of
        /// the module's second-to-last child.
        /// </summary>
        List<GameObject> MaskObjects(IList<ITarget> targets)
        {
            var objects = new List<GameObject>();
            foreach (ITarget target in targets) objects.Add(((Target)target).Selectable.gameObject);
            if (objects.Count == 0) return objects;
            string first = objects[0].name;
            Selectable parent = Selection.GetCurrentParent();
            if (first.StartsWith("VennWire") && !first.StartsWith("VennWiresComponent") && parent != null && parent.transform.childCount >= 2)
            {
                Transform holder = parent.transform.GetChild(parent.transform.childCount - 2);
                var graphics = new List<GameObject>();
                for (int i = holder.childCount - 1; i > holder.childCount - 7 && i >= 0; i--)
                    foreach (Transform graphic in holder.GetChild(i)) graphics.Add(graphic.gameObject);
                return graphics;
            }
            if (first == "Button" && objects[0].transform.childCount > 0) objects[0] = objects[0].transform.GetChild(0).gameObject;
            return objects;
        }

        // ------------------------------------------------------------------ state

        List<BombComponent> Solvable()
        {
            var modules = new List<BombComponent>();
            Bomb bomb = CurrentBomb;
            if (bomb == null) return modules;
            foreach (BombComponent component in bomb.BombComponents)
            {
                string kind = component.ComponentType.ToString();
                if (component.ComponentType == ComponentTypeEnum.Mod || ModuleReaders.ByKind.ContainsKey(kind))
                    modules.Add(component);
            }
            return modules;
        }

        public BombState ReadBomb()
        {
            var state = new BombState();
            Bomb bomb = CurrentBomb;
            if (bomb == null) return state;
            TimerComponent timer = bomb.GetTimer();
            if (timer != null)
            {
                state.Timer.SecondsRemaining = timer.TimeRemaining;
                BombComponent timerComponent = timer.GetComponent<BombComponent>();
                if (timerComponent != null) Place(bomb, timerComponent, out state.Timer.OnFront, out state.Timer.Index);
            }
            if (bomb.WidgetManager != null)
                foreach (Widget widget in bomb.WidgetManager.GetWidgets())
                {
                    if (widget == null) continue;
                    Transform parent = widget.transform.parent;
                    WidgetState described = Edgework.Describe(widget, parent == null ? null : parent.name);
                    if (described != null) state.Widgets.Add(described);
                }
            foreach (BombComponent component in Solvable())
            {
                ModuleState module;
                ModuleReaders.Reader reader;
                var reading = new Reading();
                if (ModuleReaders.ByKind.TryGetValue(component.ComponentType.ToString(), out reader))
                    module = reader(component, ChildNames(component), reading);
                else module = new ModdedModule { DisplayName = component.GetModuleDisplayName(), ModuleType = component.name };
                Place(bomb, component, out module.OnFront, out module.Index);
                module.IsSolved = component.IsSolved;
                module.InFocus = reading.Bool(ModuleReaders.Common.Focused, component, "inFocus");
                module.Unread = reading.Unread;
                state.Modules.Add(module);
            }
            return state;
        }

        /// <summary>The names of the module selectable's non-null children, in order.</summary>
        static List<string> ChildNames(BombComponent component)
        {
            var names = new List<string>();
            Selectable selectable = component.GetComponent<Selectable>();
            if (selectable == null || selectable.Children == null) return names;
            foreach (Selectable child in selectable.Children)
                if (child != null) names.Add(child.name);
            return names;
        }

        /// <summary>
        /// The face and slot of a component: the nearest of the anchors of Bomb.Faces[0] (the
        /// front) and Faces[1] (the rear), index in that face's anchor list.
        /// </summary>
        static void Place(Bomb bomb, BombComponent component, out bool onFront, out int index)
        {
            onFront = true;
            index = 0;
            float nearest = float.MaxValue;
            if (bomb.Faces == null) return;
            Vector3 position = component.transform.position;
            for (int face = 0; face < bomb.Faces.Count && face < 2; face++)
            {
                List<Transform> anchors = bomb.Faces[face].Anchors;
                if (anchors == null) continue;
                for (int i = 0; i < anchors.Count; i++)
                {
                    float distance = Vector3.Distance(position, anchors[i].position);
                    if (distance >= nearest) continue;
                    nearest = distance;
                    onFront = face == 0;
                    index = i;
                }
            }
        }

        /// <summary>A component is on the front face when its up-vector is within 90° of the bomb's.</summary>
        static bool OnFront(Bomb bomb, BombComponent component)
        {
            return Vector3.Angle(component.transform.up, bomb.transform.up) < 90f;
        }
    }
}
