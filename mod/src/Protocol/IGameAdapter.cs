using System.Collections.Generic;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// Something the player can point at: a module (clicking it zooms in) or an element inside
    /// the focused module (a wire, a button). Adapters return their own implementations.
    /// </summary>
    public interface ITarget
    {
        /// <summary>The name the action texts show (the game object's name).</summary>
        string Name { get; }

        /// <summary>True for a whole module: a click zooms in instead of pressing.</summary>
        bool IsModule { get; }
    }

    /// <summary>
    /// What the controller hears from the game. The adapter calls these on the main thread.
    /// </summary>
    public interface IGameEvents
    {
        void SceneChanged(SceneState scene);
        void LightsChanged(bool on);
        void BombExploded();
        void BombSolved();
        /// <summary>A module struck; <paramref name="moduleName"/> is its protocol name.</summary>
        void Strike(string moduleName);
    }

    /// <summary>One entry of /modules.</summary>
    public sealed class ModuleListing
    {
        public string Id;
        public string DisplayName;
        public bool IsMod;
    }

    /// <summary>
    /// Everything the protocol needs from the game. Every member is called on the game's main
    /// thread only (the controller guarantees it), so an implementation may touch Unity freely.
    /// Coordinates are Unity's: x from the left, y from the bottom, both in [0, 1].
    /// Images are RGB24, rows bottom-to-top, FrameWidth × FrameHeight.
    /// </summary>
    public interface IGameAdapter
    {
        /// <summary>Subscribe the controller; called once before anything else.</summary>
        void Attach(IGameEvents events);

        int FrameWidth { get; }
        int FrameHeight { get; }

        /// <summary>Unity's Time.timeScale: 0 pauses game time, 1 is real time.</summary>
        float TimeScale { get; set; }

        /// <summary>
        /// Build a generator setting from the mission and start it with its seed. Throws
        /// <see cref="RefusedException"/> for components the game cannot build.
        /// </summary>
        void StartMission(MissionConfig mission);

        /// <summary>Leave the mission (if any) for the setup room.</summary>
        void ReturnToSetup();

        /// <summary>Hold the bomb facing the camera (front), as a player picks it up.</summary>
        void PickUpBomb();

        /// <summary>Ray-cast from the camera through the point; null when nothing is hit.</summary>
        ITarget HitTest(double x, double yFromBottom);

        /// <summary>The focused (zoomed-into) module's name, or null.</summary>
        string FocusedModule { get; }

        void ZoomIn(ITarget module);
        void ZoomOut();
        void Press(ITarget element);
        void Release(ITarget element);

        /// <summary>Orient the held bomb: tilt +90 shows the top, −90 the bottom; side 0/90/180/270.</summary>
        void SetBombRotation(int tiltDegrees, int sideDegrees);

        /// <summary>Make the rear (or front) face the one whose modules can be selected.</summary>
        void SelectFace(bool rear);

        /// <summary>What segmentation colours, in order (§3.3); empty when nothing is segmentable.</summary>
        IList<ITarget> ActiveTargets();

        /// <summary>The current view from the duplicate camera.</summary>
        byte[] CaptureFrame();

        /// <summary>Render <paramref name="targets"/> flat in <paramref name="colors"/> on black.</summary>
        byte[] RenderMask(IList<ITarget> targets, byte[][] colors);

        /// <summary>
        /// Timer, widgets and modules (with focus and progress). The controller fills the rest
        /// (seed, strikes, flags, side) from what it tracked itself.
        /// </summary>
        BombState ReadBomb();

        /// <summary>The module's target for zooming (oracle use); null if unknown.</summary>
        ITarget ModuleTarget(int moduleIndex);

        /// <summary>Force-solve one module silently; returns its object name.</summary>
        string ForceSolve(int moduleIndex);

        void Detonate();

        IList<ModuleListing> ListModules();
    }
}
