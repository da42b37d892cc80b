// Sampling stage for three 8-bit planes (R8): yuv420p, yuv422p, yuv444p.
vec4 kiosk_sample(vec2 uv) {
    vec2 st = kiosk_stored(uv);
    vec2 cst = st + u_chromaShift;
    return kiosk_yuv(vec3(texture(u_plane0, st).r, kiosk_bilinear8(u_plane1, cst).r, kiosk_bilinear8(u_plane2, cst).r) * 255.0);
}
