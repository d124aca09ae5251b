// The lifecycle tokens of /health (docs/protocol.md §4.1) and KTANE's scene states.
namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// What /health answers. The numbering is the shipped mod's, so logs of both line up.
    /// Gameplay is the value at process start and while a mission loads.
    /// </summary>
    public enum Lifecycle
    {
        Gameplay = 0,
        Setup = 1,
        LightsOn = 2,
        LightsOff = 3,
        Transitioning = 4,
        PostGame = 5,
    }

    /// <summary>
    /// KTANE's own scene states (KMGameInfo.State). Unlock and Quitting are ignored by the
    /// lifecycle (the token stays what it was), as in the shipped mod.
    /// </summary>
    public enum SceneState
    {
        Gameplay,
        Setup,
        PostGame,
        Transitioning,
        Unlock,
        Quitting,
    }
}
