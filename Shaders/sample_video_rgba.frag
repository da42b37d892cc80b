// Sampling stage for a video frame converted once to RGBA (a pixel format with no shader path).
vec4 kiosk_sample(vec2 uv) {
    return texture(u_plane0, kiosk_stored(uv));
}
