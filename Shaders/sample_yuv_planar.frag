// Sampling stage for three 8-bit planes (R8): yuv420p, yuv422p, yuv444p.
// The luma code at stored uv st, and the two chroma codes at chroma uv cst (the area pre-pass reads these apart).
float kiosk_luma(vec2 st) {
    return texture(u_plane0, st).r * 255.0;
}

vec2 kiosk_chroma(vec2 cst) {
    return vec2(kiosk_bilinear8(u_plane1, cst).r, kiosk_bilinear8(u_plane2, cst).r) * 255.0;
}

// The chroma codes the area pre-pass reads, filtered by the texture unit: its taps are averaged, so the 8-bit filter
// steps do not show, and one read costs a quarter of kiosk_chroma's four.
vec2 kiosk_chroma_area(vec2 cst) {
    return vec2(texture(u_plane1, cst).r, texture(u_plane2, cst).r) * 255.0;
}

vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    return kiosk_yuv(vec3(kiosk_luma(st), kiosk_chroma(st + u_chromaShift)));
}
