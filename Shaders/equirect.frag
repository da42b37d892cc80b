// Equirectangular source: longitude across the eye's width covers u_inputFov radians (2π: 360×180, π: 180×180),
// latitude down its height covers π. Outside the covered longitudes: background.
uniform float u_inputFov;

vec2 kiosk_source(vec2 canvasUV) {
    vec3 d = kiosk_view_ray(canvasUV);
    float phi = atan(d.x, d.z);
    float theta = asin(clamp(d.y, -1.0, 1.0));
    float halfFov = 0.5 * u_inputFov;
    if (halfFov < KIOSK_PI && abs(phi) > halfFov) {
        return vec2(-1.0);
    }
    return kiosk_eye_uv(vec2(phi / halfFov, theta / (0.5 * KIOSK_PI)));
}
