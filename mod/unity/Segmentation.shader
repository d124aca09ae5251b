// Gptnt/Segmentation: the replacement shader of the segmentation camera (docs/protocol.md §3.4).
// Every renderer is drawn unlit in the flat colour the mod sets per object through a
// MaterialPropertyBlock (_SegmentationColor). A texel is discarded only where its alpha is below
// the object's own material's _Cutoff, so cut-out geometry keeps its real outline while opaque
// materials (whose albedo alpha may hold smoothness, and which have no _Cutoff: it reads 0) are
// drawn whole, as GPTNT's segmentation shader does. No lighting, no fog, no blending.
Shader "Gptnt/Segmentation"
{
    Properties
    {
        _MainTex ("Texture (alpha used for cutout)", 2D) = "white" {}
        _SegmentationColor ("Segmentation colour", Color) = (0, 0, 0, 1)
    }
    SubShader
    {
        Tags { "RenderType" = "Opaque" }
        Pass
        {
            Lighting Off
            Fog { Mode Off }
            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #include "UnityCG.cginc"

            sampler2D _MainTex;
            float4 _MainTex_ST;
            // Not in Properties on purpose: a replacement shader takes it from each object's own
            // material, and a material without one leaves it 0 (nothing discarded).
            float _Cutoff;
            fixed4 _SegmentationColor;

            struct appdata { float4 vertex : POSITION; float2 uv : TEXCOORD0; };
            struct v2f { float4 pos : SV_POSITION; float2 uv : TEXCOORD0; };

            v2f vert(appdata v)
            {
                v2f o;
                o.pos = UnityObjectToClipPos(v.vertex);
                o.uv = TRANSFORM_TEX(v.uv, _MainTex);
                return o;
            }

            fixed4 frag(v2f i) : SV_Target
            {
                clip(tex2D(_MainTex, i.uv).a - _Cutoff);
                return fixed4(_SegmentationColor.rgb, 1);
            }
            ENDCG
        }
    }
}
