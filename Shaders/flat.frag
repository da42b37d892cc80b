// A flat picture placed on the canvas: picture uv = canvas uv * u_uvScale + u_uvOffset (a FlatView: fit, zoom,
// pan), outside 0..1 is background. (The flat crop of one eye uploads only that eye's pixels.)
uniform vec2 u_uvScale;
uniform vec2 u_uvOffset;

vec2 kiosk_source(vec2 canvasUV) {
    vec2 p = canvasUV * u_uvScale + u_uvOffset;
    if (any(lessThan(p, vec2(0.0))) || any(greaterThan(p, vec2(1.0)))) {
        return vec2(-1.0);
    }
    return p;
}
