// Equidistant fisheye source: the angle from the optical axis (forward) grows linearly with the distance from the
// eye's centre; the inscribed circle covers u_inputFov radians (180..220 degrees). Outside the circle: background.
uniform float u_inputFov;

vec2 kiosk_source(vec2 canvasUV) {
    vec3 d = kiosk_view_ray(canvasUV);
    float h = length(d.xy);
    float angle = atan(h, d.z);
    vec2 f = (h > 0.0 ? d.xy / h : vec2(0.0)) * (2.0 * angle / u_inputFov);
    if (length(f) > 1.0) {
        return vec2(-1.0);
    }
    return kiosk_eye_uv(f);
}
