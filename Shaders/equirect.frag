// Equirectangular source: longitude across the eye's width covers u_inputFov radians (2π: 360×180, π: 180×180),
// latitude down its height covers π. Outside the covered longitudes: background.
uniform float u_inputFov;

vec2 kiosk_source(vec2 canvasUV) {
    vec3 d = kiosk_view_ray(canvasUV);
    float phi = atan(d.x, d.z);
    // atan of a ratio, not asin(d.y): Mesa lowers asin to a coarse polynomial (a detailed 2048x1024 equirect seen
    // at 90x70: 49 dB against exact sampling with asin, 59 dB with atan, whose polynomial is good to 3e-6 rad)
    float theta = atan(d.y, length(d.xz));
    float halfFov = 0.5 * u_inputFov;
    if (halfFov < KIOSK_PI && abs(phi) > halfFov) {
        return vec2(-1.0);
    }
    return kiosk_eye_uv(vec2(phi / halfFov, theta / (0.5 * KIOSK_PI)));
}
