// Sampling stage for three 16-bit planes as byte pairs (RG8): yuv420p10.
vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    vec2 cst = st + u_chromaShift;
    return kiosk_yuv(vec3(kiosk_bilinear16(u_plane0, st).x, kiosk_bilinear16(u_plane1, cst).x, kiosk_bilinear16(u_plane2, cst).x));
}
