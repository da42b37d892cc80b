// Sampling stage for a video frame uploaded as its YUV planes; the conversion to RGB happens here, so every
// effect and projection works on video unchanged. uv is in the displayed picture (after rotation); u_orient
// turns it into the stored frame's uv.
//   u_layout 0: three 8-bit planes (R8)            1: 8-bit Y (R8) + interleaved UV (RG8)
//            2: three 16-bit planes (RG8 = lo,hi)  3: 16-bit Y (RG8) + interleaved UV (RGBA8 = Ulo,Uhi,Vlo,Vhi)
//            4: one RGBA8 plane (the swscale fallback)
// 16-bit samples, and all chroma, are fetched texel by texel and filtered here: filtering bytes in hardware
// loses precision (llvmpipe filters 8-bit textures in 8-bit steps).
// rgb = u_yuvMatrix * (code * u_codeScale - u_yuvOffset), codes being the integer sample values.
uniform sampler2D u_plane0;
uniform sampler2D u_plane1;
uniform sampler2D u_plane2;
uniform int u_layout;
uniform mat3 u_yuvMatrix;
uniform vec3 u_yuvOffset;
uniform float u_codeScale;
uniform vec2 u_chromaShift;
uniform mat3 u_orient;

vec2 kiosk_codes16(vec4 t) {
    return vec2(t.r + t.g * 256.0, t.b + t.a * 256.0) * 255.0;
}

// Bilinear filtering of 16-bit codes stored as byte pairs (one pair in .rg, a second in .ba).
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

// Bilinear filtering of an 8-bit texture at full float precision.
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

vec4 kiosk_sample(vec2 uv) {
    vec2 st = (u_orient * vec3(uv, 1.0)).xy;
    if (u_layout == 4) {
        return texture(u_plane0, st);
    }
    vec2 cst = st + u_chromaShift;
    vec3 code;
    if (u_layout == 0) {
        code = vec3(texture(u_plane0, st).r, kiosk_bilinear8(u_plane1, cst).r, kiosk_bilinear8(u_plane2, cst).r) * 255.0;
    } else if (u_layout == 1) {
        code = vec3(texture(u_plane0, st).r, kiosk_bilinear8(u_plane1, cst).rg) * 255.0;
    } else if (u_layout == 2) {
        code = vec3(kiosk_bilinear16(u_plane0, st).x, kiosk_bilinear16(u_plane1, cst).x,
                    kiosk_bilinear16(u_plane2, cst).x);
    } else {
        code = vec3(kiosk_bilinear16(u_plane0, st).x, kiosk_bilinear16(u_plane1, cst));
    }
    vec3 rgb = u_yuvMatrix * (code * u_codeScale - u_yuvOffset);
    return vec4(clamp(rgb, 0.0, 1.0), 1.0);
}
