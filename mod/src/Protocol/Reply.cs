using System;
using System.Text;

namespace Gptnt.Mod.Protocol
{
    /// <summary>What a route answers: status, body and the Content-Type it sets (null: none).</summary>
    public sealed class Reply
    {
        public const string Text = "text/plain; charset=utf-8";
        public const string Json = "application/json";
        public const string Binary = "application/octet-stream";

        public readonly int Status;
        public readonly byte[] Body;
        public readonly string ContentType;

        public Reply(int status, byte[] body, string contentType)
        {
            Status = status;
            Body = body ?? new byte[0];
            ContentType = contentType;
        }

        public static Reply Ok(string text)
        {
            return new Reply(200, Encoding.UTF8.GetBytes(text), Text);
        }

        public static Reply WithStatus(int status, string text)
        {
            return new Reply(status, Encoding.UTF8.GetBytes(text), Text);
        }

        public string BodyText
        {
            get { return Encoding.UTF8.GetString(Body); }
        }
    }

    /// <summary>
    /// A refusal with the shipped mod's body text and an honest status code (§1.2: the shipped
    /// mod said 200 for most of these; old clients read the body, so the body is unchanged).
    /// </summary>
    public class RefusedException : Exception
    {
        public readonly int Status;

        public RefusedException(int status, string body) : base(body)
        {
            Status = status;
        }
    }
}
