using System;
using System.IO;
using System.IO.Compression;

namespace Gptnt.Mod.Protocol
{
    /// <summary>
    /// A small PNG encoder for /old-buffer and /buffer?format=png: 8-bit RGB, filter "Sub" on
    /// every row, zlib stream from .NET's DeflateStream. Unity's old Mono can lack the native
    /// deflate helper; then the image is written with stored (uncompressed) deflate blocks,
    /// still a valid PNG, just larger.
    /// Input is the mod's image layout (rows bottom-to-top); PNG rows are top-down.
    /// </summary>
    public static class Png
    {
        static readonly byte[] Signature = { 137, 80, 78, 71, 13, 10, 26, 10 };
        static readonly uint[] CrcTable = MakeCrcTable();

        /// <summary>
        /// Does this runtime really compress? Decides whether /buffer?format=png is advertised:
        /// stored PNGs are valid but no smaller than the raw layout, which is the point of the
        /// extension.
        /// </summary>
        public static readonly bool Compresses = Zlib(new byte[4096]).Length < 1024;

        public static byte[] Encode(byte[] bottomUpRgb, int width, int height)
        {
            byte[] raw = FilteredRows(bottomUpRgb, width, height);
            var png = new MemoryStream();
            png.Write(Signature, 0, Signature.Length);
            var header = new byte[13];
            WriteBigEndian(header, 0, (uint)width);
            WriteBigEndian(header, 4, (uint)height);
            header[8] = 8;   // bit depth
            header[9] = 2;   // colour type RGB
            Chunk(png, "IHDR", header);
            Chunk(png, "IDAT", Zlib(raw));
            Chunk(png, "IEND", new byte[0]);
            return png.ToArray();
        }

        /// <summary>Top-down rows, each prefixed by filter byte 1 (Sub: minus the pixel to the left).</summary>
        static byte[] FilteredRows(byte[] image, int width, int height)
        {
            int stride = width * 3;
            var raw = new byte[(stride + 1) * height];
            for (int y = 0; y < height; y++)
            {
                int src = (height - 1 - y) * stride;
                int dst = y * (stride + 1);
                raw[dst] = 1;
                for (int x = 0; x < stride; x++)
                {
                    byte left = x >= 3 ? image[src + x - 3] : (byte)0;
                    raw[dst + 1 + x] = (byte)(image[src + x] - left);
                }
            }
            return raw;
        }

        static byte[] Zlib(byte[] data)
        {
            byte[] deflated;
            try
            {
                var compressed = new MemoryStream();
                using (var deflate = new DeflateStream(compressed, CompressionMode.Compress, true))
                    deflate.Write(data, 0, data.Length);
                deflated = compressed.ToArray();
            }
            catch (Exception)  // no native deflate in this runtime: store instead
            {
                deflated = Stored(data);
            }
            var zlib = new byte[2 + deflated.Length + 4];
            zlib[0] = 0x78;
            zlib[1] = 0x01;
            Buffer.BlockCopy(deflated, 0, zlib, 2, deflated.Length);
            WriteBigEndian(zlib, 2 + deflated.Length, Adler32(data));
            return zlib;
        }

        /// <summary>Deflate "stored" blocks: at most 65535 bytes each, no compression.</summary>
        public static byte[] Stored(byte[] data)
        {
            var output = new MemoryStream();
            int offset = 0;
            do
            {
                int length = Math.Min(65535, data.Length - offset);
                bool final = offset + length >= data.Length;
                output.WriteByte((byte)(final ? 1 : 0));
                output.WriteByte((byte)length);
                output.WriteByte((byte)(length >> 8));
                output.WriteByte((byte)~length);
                output.WriteByte((byte)(~length >> 8));
                output.Write(data, offset, length);
                offset += length;
            } while (offset < data.Length);
            return output.ToArray();
        }

        static void Chunk(Stream png, string type, byte[] data)
        {
            var head = new byte[8];
            WriteBigEndian(head, 0, (uint)data.Length);
            for (int i = 0; i < 4; i++) head[4 + i] = (byte)type[i];
            png.Write(head, 0, 8);
            png.Write(data, 0, data.Length);
            uint crc = 0xFFFFFFFFu;
            crc = Crc(crc, head, 4, 4);
            crc = Crc(crc, data, 0, data.Length);
            var tail = new byte[4];
            WriteBigEndian(tail, 0, crc ^ 0xFFFFFFFFu);
            png.Write(tail, 0, 4);
        }

        static uint Crc(uint crc, byte[] data, int offset, int count)
        {
            for (int i = offset; i < offset + count; i++)
                crc = CrcTable[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
            return crc;
        }

        static uint[] MakeCrcTable()
        {
            var table = new uint[256];
            for (uint n = 0; n < 256; n++)
            {
                uint c = n;
                for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
                table[n] = c;
            }
            return table;
        }

        static uint Adler32(byte[] data)
        {
            uint a = 1, b = 0;
            foreach (byte value in data)
            {
                a = (a + value) % 65521;
                b = (b + a) % 65521;
            }
            return (b << 16) | a;
        }

        static void WriteBigEndian(byte[] into, int offset, uint value)
        {
            into[offset] = (byte)(value >> 24);
            into[offset + 1] = (byte)(value >> 16);
            into[offset + 2] = (byte)(value >> 8);
            into[offset + 3] = (byte)value;
        }
    }

    /// <summary>
    /// The GPTNTPNG container of /buffer?format=png (gptnt.protocol._buffer, an extension of
    /// ours): magic, u8 has_mask, u32 count, then (u32 length, PNG) per frame and for the mask.
    /// </summary>
    public static class PngContainer
    {
        static readonly byte[] Magic = { (byte)'G', (byte)'P', (byte)'T', (byte)'N', (byte)'T', (byte)'P', (byte)'N', (byte)'G' };

        public static byte[] Pack(System.Collections.Generic.IList<byte[]> frames, byte[] mask, int width, int height)
        {
            var output = new MemoryStream();
            output.Write(Magic, 0, Magic.Length);
            var head = new byte[5];
            head[0] = (byte)(mask == null ? 0 : 1);
            BufferCodec.WriteInt32(head, 1, frames.Count);
            output.Write(head, 0, 5);
            foreach (byte[] frame in frames) Append(output, Png.Encode(frame, width, height));
            if (mask != null) Append(output, Png.Encode(mask, width, height));
            return output.ToArray();
        }

        static void Append(Stream output, byte[] png)
        {
            var length = new byte[4];
            BufferCodec.WriteInt32(length, 0, png.Length);
            output.Write(length, 0, 4);
            output.Write(png, 0, png.Length);
        }
    }
}
