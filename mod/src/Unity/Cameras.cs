using System.Collections.Generic;
using UnityEngine;

namespace Gptnt.Mod.Unity
{
    /// <summary>
    /// The two extra cameras of the mod (docs/protocol.md §3): a duplicate of the game camera that
    /// renders the frame buffer's images, and a segmentation camera that renders only the objects
    /// put on <see cref="SegmentationLayer"/>, each flat in its colour through a replacement
    /// shader (unlit, cut out at each material's own _Cutoff), on black, without anti-aliasing. Both render into W×H
    /// textures, so frames, masks and click coordinates share one pixel grid. Images come back as
    /// RGB24, rows bottom-to-top, exactly what /buffer sends.
    /// </summary>
    public sealed class Cameras
    {
        /// <summary>
        /// The layer the game leaves free (GPTNT's segmentation camera uses it too); objects visit
        /// it only during a mask render.
        /// </summary>
        public const int SegmentationLayer = 31;
        const string ColorProperty = "_SegmentationColor";

        readonly int _width, _height;
        readonly Shader _shader;
        Camera _frameCamera, _maskCamera;
        RenderTexture _frameTexture, _maskTexture;
        Texture2D _readback;

        public Cameras(int width, int height, Shader segmentationShader)
        {
            _width = width;
            _height = height;
            _shader = segmentationShader;
        }

        public byte[] CaptureFrame()
        {
            Camera camera = Follow(ref _frameCamera, ref _frameTexture, false);
            if (camera == null) return new byte[_width * _height * 3];
            camera.Render();
            return Read(_frameTexture);
        }

        /// <summary>
        /// Render the renderers of each target in its colour. Layers and property blocks are put
        /// back afterwards (the shipped mod left every recoloured object on layer 11).
        /// </summary>
        public byte[] RenderMask(IList<GameObject> targets, byte[][] colors, ICollection<string> excludedNames)
        {
            Camera camera = Follow(ref _maskCamera, ref _maskTexture, true);
            if (camera == null || _shader == null) return null;
            var layers = new Dictionary<GameObject, int>();
            var renderers = new List<Renderer>();
            var block = new MaterialPropertyBlock();
            for (int i = 0; i < targets.Count; i++)
            {
                block.Clear();
                byte[] c = colors[i];
                block.SetColor(ColorProperty, new Color(c[0] / 255f, c[1] / 255f, c[2] / 255f, 1f));
                foreach (Renderer renderer in targets[i].GetComponentsInChildren<Renderer>(false))
                {
                    if (UnderExcluded(renderer.transform, targets[i].transform, excludedNames)) continue;
                    if (!layers.ContainsKey(renderer.gameObject)) layers[renderer.gameObject] = renderer.gameObject.layer;
                    renderer.gameObject.layer = SegmentationLayer;
                    renderer.SetPropertyBlock(block);
                    renderers.Add(renderer);
                }
            }
            try
            {
                camera.RenderWithShader(_shader, "");
                return Read(_maskTexture);
            }
            finally
            {
                foreach (Renderer renderer in renderers) renderer.SetPropertyBlock(null);
                foreach (KeyValuePair<GameObject, int> saved in layers) saved.Key.layer = saved.Value;
            }
        }

        static bool UnderExcluded(Transform node, Transform root, ICollection<string> names)
        {
            for (Transform t = node; t != null && t != root; t = t.parent)
                if (names.Contains(t.name)) return true;
            return false;
        }

        /// <summary>A camera parented to the game's main camera with its optics, created on first use.</summary>
        Camera Follow(ref Camera camera, ref RenderTexture texture, bool segmentation)
        {
            Camera main = Camera.main;
            if (main == null) return null;
            if (camera == null)
            {
                var holder = new GameObject(segmentation ? "GptntSegmentationCamera" : "GptntFrameCamera");
                holder.transform.SetParent(main.transform, false);
                camera = holder.AddComponent<Camera>();
                camera.enabled = false;  // rendered on demand only
                texture = new RenderTexture(_width, _height, 24);  // ARGB32, the default format
                if (segmentation)
                {
                    texture.antiAliasing = 1;
                    texture.filterMode = FilterMode.Point;
                }
                camera.targetTexture = texture;
            }
            camera.fieldOfView = main.fieldOfView;
            camera.nearClipPlane = main.nearClipPlane;
            camera.farClipPlane = main.farClipPlane;
            camera.aspect = (float)_width / _height;
            if (segmentation)
            {
                camera.cullingMask = 1 << SegmentationLayer;
                camera.clearFlags = CameraClearFlags.SolidColor;
                camera.backgroundColor = Color.black;
                camera.allowMSAA = false;
            }
            else
            {
                camera.cullingMask = main.cullingMask;
                camera.clearFlags = main.clearFlags;
                camera.backgroundColor = main.backgroundColor;
            }
            return camera;
        }

        byte[] Read(RenderTexture texture)
        {
            if (_readback == null) _readback = new Texture2D(_width, _height, TextureFormat.RGB24, false);
            RenderTexture previous = RenderTexture.active;
            RenderTexture.active = texture;
            _readback.ReadPixels(new Rect(0, 0, _width, _height), 0, 0);
            RenderTexture.active = previous;
            return _readback.GetRawTextureData();  // RGB24, bottom row first, no padding
        }
    }
}
