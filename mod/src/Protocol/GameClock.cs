using System;
using System.Collections.Generic;

namespace Gptnt.Mod.Protocol
{
    /// <summary>A parameterless callback (.NET 2.0's mscorlib has no non-generic Action).</summary>
    public delegate void Callback();

    /// <summary>
    /// Game time as the main thread sees it: advanced by each frame's scaled delta (Unity's
    /// Time.deltaTime), so it stands still while the game is paused. Callbacks wait for an
    /// amount of game time — the plain equivalent of a coroutine's WaitForSeconds — or for time
    /// to run at all (the shipped mod's "wait until timeScale > 0").
    /// </summary>
    public sealed class GameClock
    {
        sealed class Timer
        {
            public double Due;
            public long Order;
            public Callback Run;
        }

        readonly List<Timer> _timers = new List<Timer>();
        readonly List<Callback> _whenRunning = new List<Callback>();
        long _order;

        /// <summary>Seconds of game time since the process started.</summary>
        public double Now { get; private set; }

        /// <summary>Run <paramref name="callback"/> once <paramref name="seconds"/> of game time passed.</summary>
        public void After(double seconds, Callback callback)
        {
            _timers.Add(new Timer { Due = Now + seconds, Order = _order++, Run = callback });
        }

        /// <summary>Run <paramref name="callback"/> once the clock reaches <paramref name="time"/> (game seconds).</summary>
        public void At(double time, Callback callback)
        {
            _timers.Add(new Timer { Due = time, Order = _order++, Run = callback });
        }

        /// <summary>Run <paramref name="callback"/> the next time game time advances.</summary>
        public void WhenRunning(Callback callback)
        {
            _whenRunning.Add(callback);
        }

        /// <summary>One frame: advance by <paramref name="scaledDelta"/> and fire what is due, in order.</summary>
        public void Advance(double scaledDelta)
        {
            if (scaledDelta <= 0) return;
            Now += scaledDelta;
            if (_whenRunning.Count > 0)
            {
                var running = new List<Callback>(_whenRunning);
                _whenRunning.Clear();
                foreach (Callback callback in running) callback();
            }
            while (true)
            {
                Timer next = null;
                foreach (Timer timer in _timers)
                {
                    if (timer.Due > Now + 1e-9) continue;
                    if (next == null || timer.Due < next.Due || (timer.Due == next.Due && timer.Order < next.Order))
                        next = timer;
                }
                if (next == null) return;
                _timers.Remove(next);
                next.Run();
            }
        }
    }
}
