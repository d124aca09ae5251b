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
        int _tilt, _side;

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
            foreach (BombComponent component in bomb.BombComponents)
            {
                string name = component.ComponentType == ComponentTypeEnum.Mod
                    ? component.GetModuleDisplayName() : component.ComponentType.ToString();
                component.OnStrike += delegate (BombComponent source) { _events.Strike(name); return false; };
            }
        }

        public void PickUpBomb()
        {
            Bomb bomb = CurrentBomb;
            if (bomb == null) return;
            Selectable held = bomb.GetComponent<Selectable>();
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
            Reflect.Call(component, "HandlePass");
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
            SimonDelay(selectable, 1f);  // §6.3 / paper C.1.3: replay the sequence after 1 s
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
            if (selectable.Parent != null) SimonDelay(selectable.Parent, 5f);
            selectable.HandleInteract();
            selectable.SetHighlight(false);
        }

        public void Release(ITarget element)
        {
            ((Target)element).Selectable.OnInteractEnded();
        }

        /// <summary>Simon Says' pause between replays (the paper shortens it from 5 s to 1 s).</summary>
        static void SimonDelay(Selectable selectable, float seconds)
        {
            BombComponent component = selectable.GetComponent<BombComponent>();
            if (component != null && component.ComponentType == ComponentTypeEnum.Simon)
                Reflect.Set(component, "PlaySequenceDelay", seconds);
        }

        public void SetBombRotation(int tiltDegrees, int sideDegrees)
        {
            _tilt = tiltDegrees;
            _side = sideDegrees;
            Transform baseline = Selection.GetBaseHeldObjectTransform();
            if (baseline == null) return;
            Selection.SetZSpin(0f);
            Selection.SetControlsRotation(baseline.rotation * Quaternion.Euler(tiltDegrees, 0f, sideDegrees));
        }

        public void SelectFace(bool rear)
        {
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
            if (parent.Children == null) return targets;
            foreach (Selectable child in parent.Children)
                if (child != null && Array.IndexOf(Excluded, child.name) < 0 && child.gameObject.activeInHierarchy)
                    targets.Add(new Target { Selectable = child });
            return targets;
        }

        public byte[] CaptureFrame()
        {
            return _cameras.CaptureFrame();
        }

        public byte[] RenderMask(IList<ITarget> targets, byte[][] colors)
        {
            var objects = new List<GameObject>();
            foreach (ITarget target in targets) objects.Add(((Target)target).Selectable.gameObject);
            return _cameras.RenderMask(objects, colors, Excluded);
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
                if (timerComponent != null)
                {
                    state.Timer.OnFront = OnFront(bomb, timerComponent);
                    state.Timer.Index = Slot(bomb, timerComponent);
                }
            }
            state.Widgets = Edgework.Read(bomb);
            foreach (BombComponent component in Solvable())
            {
                ModuleState module;
                ModuleReaders.Reader reader;
                if (ModuleReaders.ByKind.TryGetValue(component.ComponentType.ToString(), out reader)) module = reader(component);
                else module = new ModdedModule { DisplayName = component.GetModuleDisplayName(), ModuleType = component.name };
                module.OnFront = OnFront(bomb, component);
                module.Index = Slot(bomb, component);
                module.IsSolved = component.IsSolved;
                module.InFocus = Reflect.Bool(component, "isFocused", "IsFocused");
                state.Modules.Add(module);
            }
            return state;
        }

        /// <summary>A component is on the front face when its up-vector is within 90° of the bomb's.</summary>
        static bool OnFront(Bomb bomb, BombComponent component)
        {
            return Vector3.Angle(component.transform.up, bomb.transform.up) < 90f;
        }

        /// <summary>
        /// The anchor slot 0–5 (row-major, as seen facing that face) from the component's position
        /// in the bomb's frame: three columns across x, two rows across z; the rear is mirrored.
        /// </summary>
        static int Slot(Bomb bomb, BombComponent component)
        {
            float widest = 0f;
            foreach (BombComponent other in bomb.BombComponents)
                widest = Math.Max(widest, Math.Abs(bomb.transform.InverseTransformPoint(other.transform.position).x));
            Vector3 local = bomb.transform.InverseTransformPoint(component.transform.position);
            int column = widest <= 0f ? 1 : (int)Math.Round(local.x / widest + 1f);
            column = Math.Max(0, Math.Min(2, column));
            if (!OnFront(bomb, component)) column = 2 - column;
            int row = local.z >= 0f ? 0 : 1;
            return row * 3 + column;
        }
    }
}
