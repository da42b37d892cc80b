// Sampling stage for an RGBA8 picture seen through a sphere projection (equirect, fisheye): bilinear filtering in
// the shader, with float weights at the exact texel position and edges clamped. llvmpipe's texture unit places a
// linear sample to within about a tenth of a texel on a 2048-wide texture (fixed-point coordinates), which is
// invisible on a flat picture drawn near its size but costs 5-10 dB against v360 where a sphere view minifies a
// detailed equirect. A piece of its own, not a branch on a uniform: llvmpipe would run both sides for every pixel.
// Rows stored bottom-up when u_pictureFlip is 1 (see sample_rgba.frag).
uniform sampler2D u_picture;
uniform float u_pictureFlip;

vec4 kiosk_sample(vec2 uv) {
    ivec2 last = textureSize(u_picture, 0) - 1;
    vec2 t = vec2(uv.x, mix(uv.y, 1.0 - uv.y, u_pictureFlip)) * vec2(last + 1) - 0.5;
    vec2 f = floor(t);
    vec2 w = t - f;
    ivec2 a = clamp(ivec2(f), ivec2(0), last), b = clamp(ivec2(f) + 1, ivec2(0), last);
    vec4 top = mix(texelFetch(u_picture, a, 0), texelFetch(u_picture, ivec2(b.x, a.y), 0), w.x);
    vec4 bottom = mix(texelFetch(u_picture, ivec2(a.x, b.y), 0), texelFetch(u_picture, b, 0), w.x);
    return mix(top, bottom, w.y);
}
