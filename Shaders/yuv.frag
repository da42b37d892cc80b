// Shared head of the video sampling stages (sample_yuv_*.frag, sample_nv12.frag, sample_p010.frag,
// sample_video_rgba.frag): a frame's planes, how integer sample codes become RGB, and how displayed uv maps to
// the stored frame. Each layout has its own stage, so no pixel pays for another layout's branch. A YUV layout's
// stage also defines float kiosk_luma(vec2 st) and vec2 kiosk_chroma(vec2 cst), the codes at stored and chroma uv.
// rgb = u_yuvMatrix * (code * u_codeScale - u_yuvOffset), codes being the integer sample values.
// 16-bit samples go up as byte pairs and chroma is filtered here at float precision: filtering bytes in hardware
// loses precision (llvmpipe filters 8-bit textures in 8-bit steps).
uniform sampler2D u_plane0;
uniform sampler2D u_plane1;
uniform sampler2D u_plane2;
uniform mat3 u_yuvMatrix;
uniform vec3 u_yuvOffset;
uniform float u_codeScale;
uniform vec2 u_chromaShift;
uniform mat3 u_orient;

// Displayed uv to the stored frame's uv.
vec2 kiosk_stored(vec2 uv) {
    return (u_orient * vec3(uv, 1.0)).xy;
}

// Integer codes to opaque RGB.
vec4 kiosk_yuv(vec3 code) {
    vec3 rgb = u_yuvMatrix * (code * u_codeScale - u_yuvOffset);
    return vec4(clamp(rgb, 0.0, 1.0), 1.0);
}

// 16-bit codes from byte pairs (one pair in .rg, a second in .ba).
vec2 kiosk_codes16(vec4 t) {
    return vec2(t.r + t.g * 256.0, t.b + t.a * 256.0) * 255.0;
}

// Bilinear filtering of 16-bit codes stored as byte pairs.
vec2 kiosk_bilinear16(sampler2D s, vec2 st) {
    ivec2 size = textureSize(s, 0);
    vec2 p = st * vec2(size) - 0.5;
    vec2 f = fract(p);
    ivec2 i = ivec2(floor(p));
    ivec2 hi = size - 1;
    vec2 a = kiosk_codes16(texelFetch(s, clamp(i, ivec2(0), hi), 0));
    vec2 b = kiosk_codes16(texelFetch(s, clamp(i + ivec2(1, 0), ivec2(0), hi), 0));
    vec2 c = kiosk_codes16(texelFetch(s, clamp(i + ivec2(0, 1), ivec2(0), hi), 0));
    vec2 d = kiosk_codes16(texelFetch(s, clamp(i + ivec2(1, 1), ivec2(0), hi), 0));
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

// Bilinear filtering of an 8-bit texture at float precision.
vec4 kiosk_bilinear8(sampler2D s, vec2 st) {
    ivec2 size = textureSize(s, 0);
    vec2 p = st * vec2(size) - 0.5;
    vec2 f = fract(p);
    ivec2 i = ivec2(floor(p));
    ivec2 hi = size - 1;
    vec4 a = texelFetch(s, clamp(i, ivec2(0), hi), 0);
    vec4 b = texelFetch(s, clamp(i + ivec2(1, 0), ivec2(0), hi), 0);
    vec4 c = texelFetch(s, clamp(i + ivec2(0, 1), ivec2(0), hi), 0);
    vec4 d = texelFetch(s, clamp(i + ivec2(1, 1), ivec2(0), hi), 0);
    return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}
