// Sampling stage for P010: a 16-bit luma plane (RG8 byte pairs) and interleaved 16-bit U,V (RGBA8).
vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    return kiosk_yuv(vec3(kiosk_bilinear16(u_plane0, st).x, kiosk_bilinear16(u_plane1, st + u_chromaShift)));
}
