using System;
using System.Collections.Generic;
using System.Threading;

namespace Gptnt.Mod.Protocol
{
    /// <summary>A piece of work that runs on the game's main thread and returns a value.</summary>
    public delegate T Work<T>();

    /// <summary>
    /// Hands work from the HTTP thread to the game's main thread (Unity objects may only be
    /// touched there) and waits for the result with a deadline. The main thread calls
    /// <see cref="Drain"/> once per rendered frame; that keeps running while the game is paused
    /// (time scale 0), so queued work still executes.
    ///
    /// A job whose caller stopped waiting is skipped rather than run late: a timed-out /action
    /// must not click something a minute later.
    /// </summary>
    public sealed class MainThreadQueue
    {
        sealed class Job
        {
            public Callback Body;
            public bool Abandoned;
            public bool Started;
            public readonly ManualResetEvent Done = new ManualResetEvent(false);
        }

        readonly Queue<Job> _jobs = new Queue<Job>();
        readonly object _lock = new object();

        /// <summary>
        /// Run <paramref name="work"/> on the main thread and wait up to
        /// <paramref name="timeoutMs"/> of wall time. False when it did not finish in time.
        /// An exception thrown by the work is re-thrown here, on the caller's thread.
        /// </summary>
        public bool TryRun<T>(Work<T> work, int timeoutMs, out T result)
        {
            T value = default(T);
            Exception failure = null;
            var job = new Job();
            job.Body = delegate
            {
                try { value = work(); }
                catch (Exception err) { failure = err; }
            };
            lock (_lock) _jobs.Enqueue(job);
            bool finished = job.Done.WaitOne(timeoutMs, false);
            if (!finished)
            {
                lock (_lock)
                {
                    // Lost the race with the main thread: it started after all, so wait it out.
                    if (job.Started) finished = true;
                    else job.Abandoned = true;
                }
                if (finished) job.Done.WaitOne();
            }
            job.Done.Close();
            result = value;
            if (!finished) return false;
            RefusedException refused = failure as RefusedException;
            if (refused != null) throw new RefusedException(refused.Status, refused.Message);
            if (failure != null) throw new TargetFailedException(failure);
            return true;
        }

        /// <summary>Post work without waiting for it (e.g. a deferred pause).</summary>
        public void Post(Callback work)
        {
            var job = new Job();
            job.Body = work;
            lock (_lock) _jobs.Enqueue(job);
        }

        /// <summary>Run every queued job; called on the main thread once per frame.</summary>
        public void Drain()
        {
            while (true)
            {
                Job job;
                lock (_lock)
                {
                    if (_jobs.Count == 0) return;
                    job = _jobs.Dequeue();
                    if (job.Abandoned) continue;
                    job.Started = true;
                }
                try { job.Body(); }
                finally
                {
                    try { job.Done.Set(); } catch (ObjectDisposedException) { }
                }
            }
        }
    }

    /// <summary>Work on the main thread threw; carries the original exception.</summary>
    public sealed class TargetFailedException : Exception
    {
        public TargetFailedException(Exception inner) : base(inner.Message, inner) { }
    }
}
