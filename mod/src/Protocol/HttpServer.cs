using System;
using System.Collections.Generic;
using System.Globalization;
using System.Net;
using System.Threading;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The HTTP front: an HttpListener on http://{host}:{port}/ (port from env "port", default
    /// 8085; host localhost, which also answers to 127.0.0.1, or * for every interface, e.g.
    /// inside a container), one accept thread and one worker thread.
    ///
    /// The accept thread answers /health, preflights and unknown routes itself, from cached
    /// values, so /health is never stuck behind a /timestep (the shipped mod's single thread
    /// blocked it for seconds). Every other request goes to the worker thread, one at a time and
    /// in arrival order, like the shipped mod. Every response carries the CORS headers and
    /// advertises our additive extensions.
    /// </summary>
    public sealed class HttpServer
    {
        public const int DefaultPort = 8085;

        readonly Router _router;
        readonly HttpListener _listener = new HttpListener();
        readonly Queue<HttpListenerContext> _pending = new Queue<HttpListenerContext>();
        readonly object _lock = new object();
        readonly Action<string> _log;
        volatile bool _running;
        Thread _accept, _worker;

        public HttpServer(Router router, string host, int port, Action<string> log)
        {
            _router = router;
            _log = log ?? delegate { };
            string number = port.ToString(CultureInfo.InvariantCulture);
            Prefix = "http://" + host + ":" + number + "/";
            _listener.Prefixes.Add(Prefix);
            // The listener matches the Host header by name: let clients that say 127.0.0.1
            // reach a localhost-only server too.
            if (host == "localhost") _listener.Prefixes.Add("http://127.0.0.1:" + number + "/");
        }

        public string Prefix { get; private set; }

        /// <summary>The port from env "port" (empty or unset: 8085).</summary>
        public static int PortFromEnvironment()
        {
            string text = Environment.GetEnvironmentVariable("port");
            if (string.IsNullOrEmpty(text)) return DefaultPort;
            int? port = Invariant.ParseInt(text);
            if (port == null || port.Value <= 0 || port.Value > 65535)
                throw new ArgumentException("env port='" + text + "' is not a TCP port; set e.g. port=8085");
            return port.Value;
        }

        public void Start()
        {
            _listener.Start();
            _running = true;
            _accept = new Thread(AcceptLoop) { IsBackground = true, Name = "gptnt-http-accept" };
            _worker = new Thread(WorkLoop) { IsBackground = true, Name = "gptnt-http-worker" };
            _accept.Start();
            _worker.Start();
            _log("listening on " + Prefix);
        }

        public void Stop()
        {
            _running = false;
            lock (_lock) Monitor.PulseAll(_lock);
            try { _listener.Stop(); _listener.Close(); } catch (Exception) { }
        }

        void AcceptLoop()
        {
            Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
            while (_running)
            {
                HttpListenerContext context;
                try { context = _listener.GetContext(); }
                catch (Exception err)
                {
                    if (_running) _log("accept failed: " + err.Message);
                    continue;
                }
                string path = Router.Normalise(context.Request.Url.AbsolutePath);
                bool preflight = string.Equals(context.Request.HttpMethod, "OPTIONS", StringComparison.OrdinalIgnoreCase);
                if (path == "/health" || preflight || !_router.Knows(path))
                {
                    Respond(context);  // cheap and independent of the game: never queued
                    continue;
                }
                lock (_lock)
                {
                    _pending.Enqueue(context);
                    Monitor.Pulse(_lock);
                }
            }
        }

        void WorkLoop()
        {
            Thread.CurrentThread.CurrentCulture = CultureInfo.InvariantCulture;
            while (_running)
            {
                HttpListenerContext context;
                lock (_lock)
                {
                    while (_running && _pending.Count == 0) Monitor.Wait(_lock);
                    if (!_running) return;
                    context = _pending.Dequeue();
                }
                Respond(context);
            }
        }

        void Respond(HttpListenerContext context)
        {
            HttpListenerRequest request = context.Request;
            Reply reply = _router.Handle(request.HttpMethod, request.Url.AbsolutePath, request.QueryString);
            if (Router.Normalise(request.Url.AbsolutePath) != "/health")
                _log(request.HttpMethod + " " + request.Url.PathAndQuery + " -> " + reply.Status);
            HttpListenerResponse response = context.Response;
            try
            {
                response.StatusCode = reply.Status;
                response.AddHeader("Access-Control-Allow-Origin", "*");
                response.AddHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
                response.AddHeader("Access-Control-Allow-Headers", "Content-Type, traceparent, tracestate");
                response.AddHeader(Router.ExtensionsHeader, Router.Extensions);
                if (reply.ContentType != null) response.ContentType = reply.ContentType;
                response.ContentLength64 = reply.Body.Length;
                response.OutputStream.Write(reply.Body, 0, reply.Body.Length);
                response.OutputStream.Close();
            }
            catch (Exception err)  // the client went away; nothing to answer
            {
                _log("response to " + request.Url.AbsolutePath + " failed: " + err.Message);
                try { response.Abort(); } catch (Exception) { }
            }
        }
    }
}
