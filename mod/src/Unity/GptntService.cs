using System;
using System.Globalization;
using System.Threading;
using Gptnt.Mod.Protocol;
using UnityEngine;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// The mod's entry point: a MonoBehaviour on the service prefab (with KMService, KMGameInfo,
    /// KMBombInfo and KMGameCommands beside it), instantiated once by the game at load.
    ///
    /// It builds the adapter, the controller and the HTTP server (env: port, GAME_WIDTH,
    /// GAME_HEIGHT, GPTNT_MOD_BIND), and is the main-thread pump: every rendered frame it drains
    /// the main-thread queue and ticks the controller with the frame's scaled delta. Update keeps
    /// running while Time.timeScale is 0, so a paused game still answers.
    /// </summary>
    public sealed class GptntService : MonoBehaviour
    {
        /// <summary>The segmentation replacement shader (Gptnt/Segmentation), set on the prefab.</summary>
        public Shader SegmentationShader;

        MainThreadQueue _queue;
        GameController _controller;
        HttpServer _server;

        void Awake()
        {
            DontDestroyOnLoad(gameObject);
            Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
            int width = Dimension("GAME_WIDTH", 640), height = Dimension("GAME_HEIGHT", 480);
            Screen.SetResolution(width, height, false);
            Shader shader = SegmentationShader != null ? SegmentationShader : Shader.Find("Gptnt/Segmentation");
            var game = new UnityGame(GetComponent<KMGameInfo>(), GetComponent<KMBombInfo>(), GetComponent<KMGameCommands>(),
                new Cameras(width, height, shader), width, height);
            _queue = new MainThreadQueue();
            _controller = new GameController(game);
            string host = Environment.GetEnvironmentVariable("GPTNT_MOD_BIND");
            _server = new HttpServer(new Router(_controller, game, _queue),
                string.IsNullOrEmpty(host) ? "localhost" : host, HttpServer.PortFromEnvironment(), Log);
            _server.Start();
            CheckReflectedMembers();
        }

        /// <summary>
        /// Log, once per module kind, the game members the state readers read by name that this
        /// game lacks; /state then lists the fields they fill under "unreadFields".
        /// </summary>
        static void CheckReflectedMembers()
        {
            var holders = new System.Collections.Generic.List<Type>(ModuleReaders.Holders);
            holders.Add(typeof(Edgework.Widgets));
            holders.Add(typeof(UnityGame.Members));
            var missing = Reflect.Check(Reflect.LoadedType, holders.ToArray());
            foreach (string line in missing)
                Log("reflected member missing, " + line + " (/state marks the fields they fill as unreadFields)");
            if (missing.Count == 0) Log("every reflected game member was found");
        }

        void Update()
        {
            _queue.Drain();
            _controller.Tick(Time.deltaTime);
        }

        void OnDestroy()
        {
            if (_server != null) _server.Stop();
        }

        static int Dimension(string name, int fallback)
        {
            int? value = Invariant.ParseInt(Environment.GetEnvironmentVariable(name));
            return value == null || value.Value < 16 ? fallback : value.Value;
        }

        static void Log(string message)
        {
            Debug.Log("[GPTNT] " + message);
        }
    }
}
