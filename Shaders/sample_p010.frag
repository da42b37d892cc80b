// Sampling stage for P010: a 16-bit luma plane (RG8 byte pairs) and interleaved 16-bit U,V (RGBA8).
// The luma code at stored uv st, and the two chroma codes at chroma uv cst (the area pre-pass reads these apart).
float kiosk_luma(vec2 st) {
    return kiosk_bilinear16(u_plane0, st).x;
}

vec2 kiosk_chroma(vec2 cst) {
    return kiosk_bilinear16(u_plane1, cst);
}

// The chroma codes the area pre-pass reads (filtered here: the texture unit cannot filter byte pairs).
vec2 kiosk_chroma_area(vec2 cst) {
    return kiosk_chroma(cst);
}

vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    return kiosk_yuv(vec3(kiosk_luma(st), kiosk_chroma(st + u_chromaShift)));
}
