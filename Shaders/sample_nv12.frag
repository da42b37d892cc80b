// Sampling stage for NV12: an 8-bit luma plane (R8) and interleaved U,V (RG8).
vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    return kiosk_yuv(vec3(texture(u_plane0, st).r, kiosk_bilinear8(u_plane1, st + u_chromaShift).rg) * 255.0);
}
