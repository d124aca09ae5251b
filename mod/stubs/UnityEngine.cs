// Compile-time stand-in for the parts of UnityEngine the adapter uses. Bodies throw: never run.
using System;
using System.Collections;

namespace UnityEngine
{
    static class Stub { public static Exception Never() { return new NotSupportedException("reference stub"); } }

    public class Object
    {
        public string name { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public static implicit operator bool(Object value) { throw Stub.Never(); }
        public static T FindObjectOfType<T>() where T : Object { throw Stub.Never(); }
        public static T[] FindObjectsOfType<T>() where T : Object { throw Stub.Never(); }
        public static void Destroy(Object value) { throw Stub.Never(); }
        public static void DontDestroyOnLoad(Object value) { throw Stub.Never(); }
    }

    public class Component : Object
    {
        public GameObject gameObject { get { throw Stub.Never(); } }
        public Transform transform { get { throw Stub.Never(); } }
        public T GetComponent<T>() { throw Stub.Never(); }
        public T GetComponentInChildren<T>() { throw Stub.Never(); }
        public T[] GetComponentsInChildren<T>(bool includeInactive) { throw Stub.Never(); }
        public T GetComponentInParent<T>() { throw Stub.Never(); }
    }

    public class Behaviour : Component
    {
        public bool enabled { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    public class MonoBehaviour : Behaviour
    {
        public Coroutine StartCoroutine(IEnumerator routine) { throw Stub.Never(); }
        public Coroutine StartCoroutine(string methodName, object value) { throw Stub.Never(); }
        public void StopAllCoroutines() { throw Stub.Never(); }
    }

    public sealed class Coroutine { }

    public class ScriptableObject : Object
    {
        public static T CreateInstance<T>() where T : ScriptableObject { throw Stub.Never(); }
    }

    public sealed class GameObject : Object
    {
        public GameObject(string name) { throw Stub.Never(); }
        public int layer { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public bool activeInHierarchy { get { throw Stub.Never(); } }
        public Transform transform { get { throw Stub.Never(); } }
        public T GetComponent<T>() { throw Stub.Never(); }
        public T AddComponent<T>() where T : Component { throw Stub.Never(); }
        public T[] GetComponentsInChildren<T>(bool includeInactive) { throw Stub.Never(); }
        public T[] GetComponentsInChildren<T>() { throw Stub.Never(); }
        public void SetActive(bool value) { throw Stub.Never(); }
    }

    public static class Resources
    {
        public static T[] FindObjectsOfTypeAll<T>() where T : Object { throw Stub.Never(); }
    }

    public class Transform : Component, IEnumerable
    {
        public Vector3 position { get { throw Stub.Never(); } }
        public Quaternion rotation { get { throw Stub.Never(); } }
        public Vector3 up { get { throw Stub.Never(); } }
        public Transform parent { get { throw Stub.Never(); } }
        public int childCount { get { throw Stub.Never(); } }
        public Transform GetChild(int index) { throw Stub.Never(); }
        public void SetParent(Transform parent, bool worldPositionStays) { throw Stub.Never(); }
        public Vector3 InverseTransformPoint(Vector3 position) { throw Stub.Never(); }
        public IEnumerator GetEnumerator() { throw Stub.Never(); }
    }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static float Angle(Vector3 from, Vector3 to) { throw Stub.Never(); }
        public static float Distance(Vector3 a, Vector3 b) { throw Stub.Never(); }
    }

    public struct Quaternion
    {
        public static Quaternion identity { get { throw Stub.Never(); } }
        public static Quaternion Euler(float x, float y, float z) { throw Stub.Never(); }
        public static Quaternion operator *(Quaternion a, Quaternion b) { throw Stub.Never(); }
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
        public static Color black { get { throw Stub.Never(); } }
    }

    public struct Rect
    {
        public Rect(float x, float y, float width, float height) { throw Stub.Never(); }
    }

    public struct Ray { }

    public struct RaycastHit
    {
        public Collider collider { get { throw Stub.Never(); } }
    }

    public class Collider : Component { }

    public static class Physics
    {
        public static bool Raycast(Ray ray, out RaycastHit hit, float maxDistance, int layerMask) { throw Stub.Never(); }
    }

    public static class Mathf
    {
        public const float Infinity = float.PositiveInfinity;
    }

    public static class Time
    {
        public static float timeScale { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public static float deltaTime { get { throw Stub.Never(); } }
    }

    public static class Screen
    {
        public static int width { get { throw Stub.Never(); } }
        public static int height { get { throw Stub.Never(); } }
        public static void SetResolution(int width, int height, bool fullscreen) { throw Stub.Never(); }
    }

    public static class Debug
    {
        public static void Log(object message) { throw Stub.Never(); }
        public static void LogError(object message) { throw Stub.Never(); }
    }

    public enum CameraClearFlags { Skybox = 1, Color = 2, SolidColor = 2, Depth = 3, Nothing = 4 }
    public enum TextureFormat { RGB24 = 3 }
    public enum FilterMode { Point = 0, Bilinear = 1 }

    public sealed class Camera : Behaviour
    {
        public static Camera main { get { throw Stub.Never(); } }
        public int cullingMask { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public float fieldOfView { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public float nearClipPlane { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public float farClipPlane { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public float aspect { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public CameraClearFlags clearFlags { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Color backgroundColor { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public bool allowMSAA { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public RenderTexture targetTexture { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Ray ScreenPointToRay(Vector3 position) { throw Stub.Never(); }
        public void Render() { throw Stub.Never(); }
        public void RenderWithShader(Shader shader, string replacementTag) { throw Stub.Never(); }
    }

    public class Texture : Object
    {
        public FilterMode filterMode { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    public sealed class RenderTexture : Texture
    {
        public RenderTexture(int width, int height, int depth) { throw Stub.Never(); }
        public static RenderTexture active { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public int antiAliasing { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    public sealed class Texture2D : Texture
    {
        public Texture2D(int width, int height, TextureFormat format, bool mipChain) { throw Stub.Never(); }
        public void ReadPixels(Rect source, int destX, int destY) { throw Stub.Never(); }
        public byte[] GetRawTextureData() { throw Stub.Never(); }
    }

    public sealed class Shader : Object
    {
        public static Shader Find(string name) { throw Stub.Never(); }
    }

    public class Renderer : Component
    {
        public void GetPropertyBlock(MaterialPropertyBlock block) { throw Stub.Never(); }
        public void SetPropertyBlock(MaterialPropertyBlock block) { throw Stub.Never(); }
    }

    public sealed class MaterialPropertyBlock
    {
        public void SetColor(string name, Color value) { throw Stub.Never(); }
        public void Clear() { throw Stub.Never(); }
    }
}
