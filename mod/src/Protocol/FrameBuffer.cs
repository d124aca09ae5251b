using System;
using System.Collections.Generic;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// The ring of captured frames: 16 RGB24 images, one per 0.25 s of game time, oldest first
    /// (docs/protocol.md §3.1). Images are kept exactly as Unity reads them back: rows
    /// bottom-to-top, no padding. Filled and cleared on the game's main thread; read through
    /// <see cref="Snapshot"/> which copies the list (the byte arrays are never changed after
    /// capture, so sharing them is safe).
    /// </summary>
    public sealed class FrameRing
    {
        public const int Capacity = 16;
        public const double Period = 0.25;  // game seconds between captures

        readonly Queue<byte[]> _frames = new Queue<byte[]>();
        readonly object _lock = new object();

        public int Count { get { lock (_lock) return _frames.Count; } }

        public void Push(byte[] frame)
        {
            lock (_lock)
            {
                _frames.Enqueue(frame);
                while (_frames.Count > Capacity) _frames.Dequeue();
            }
        }

        public void Clear() { lock (_lock) _frames.Clear(); }

        /// <summary>The newest <paramref name="last"/> frames (all when null), oldest first.</summary>
        public List<byte[]> Snapshot(int? last)
        {
            lock (_lock)
            {
                var all = new List<byte[]>(_frames);
                if (last == null || last.Value >= all.Count) return all;
                return all.GetRange(all.Count - last.Value, last.Value);
            }
        }
    }

    /// <summary>
    /// The /buffer byte layout (§3.2), little-endian whatever the machine:
    /// u8 has_segmentation, i32 frame_count, i32 frame_height, i32 frame_width, then the frames
    /// oldest first, then the mask iff has_segmentation. Every image W×H×3 bytes, rows
    /// bottom-to-top.
    /// </summary>
    public static class BufferCodec
    {
        public const int HeaderSize = 13;

        public static byte[] Pack(IList<byte[]> frames, byte[] mask, int width, int height)
        {
            int image = width * height * 3;
            foreach (byte[] frame in frames) Check(frame, image, "frame");
            if (mask != null) Check(mask, image, "mask");
            int count = frames.Count + (mask == null ? 0 : 1);
            var body = new byte[HeaderSize + (long)count * image];
            body[0] = (byte)(mask == null ? 0 : 1);
            WriteInt32(body, 1, frames.Count);
            WriteInt32(body, 5, height);
            WriteInt32(body, 9, width);
            int offset = HeaderSize;
            foreach (byte[] frame in frames)
            {
                Buffer.BlockCopy(frame, 0, body, offset, image);
                offset += image;
            }
            if (mask != null) Buffer.BlockCopy(mask, 0, body, offset, image);
            return body;
        }

        public static void WriteInt32(byte[] into, int offset, int value)
        {
            into[offset] = (byte)value;
            into[offset + 1] = (byte)(value >> 8);
            into[offset + 2] = (byte)(value >> 16);
            into[offset + 3] = (byte)(value >> 24);
        }

        static void Check(byte[] image, int expected, string what)
        {
            if (image == null || image.Length != expected)
                throw new ArgumentException(what + " has " + (image == null ? 0 : image.Length)
                    + " bytes, the header promises " + expected + " (W×H×3)");
        }
    }

    /// <summary>
    /// Segmentation colours: object i of N gets HSV(i/N, 1, 1) (§3.4), e.g. N=4 gives
    /// (255,0,0), (128,255,0), (0,255,255), (128,0,255). Background is black.
    /// </summary>
    public static class SegmentationPalette
    {
        public static byte[][] Colors(int count)
        {
            var colors = new byte[count][];
            for (int i = 0; i < count; i++) colors[i] = Hsv((double)i / count);
            return colors;
        }

        /// <summary>Full saturation and value at hue h in [0, 1), as 8-bit RGB.</summary>
        public static byte[] Hsv(double hue)
        {
            double h = (hue - Math.Floor(hue)) * 6.0;
            int sector = (int)Math.Floor(h) % 6;
            double f = h - Math.Floor(h);
            double r, g, b;
            switch (sector)
            {
                case 0: r = 1; g = f; b = 0; break;
                case 1: r = 1 - f; g = 1; b = 0; break;
                case 2: r = 0; g = 1; b = f; break;
                case 3: r = 0; g = 1 - f; b = 1; break;
                case 4: r = f; g = 0; b = 1; break;
                default: r = 1; g = 0; b = 1 - f; break;
            }
            return new[] { Channel(r), Channel(g), Channel(b) };
        }

        static byte Channel(double value)
        {
            return (byte)Math.Round(value * 255.0, MidpointRounding.AwayFromZero);
        }
    }
}
