// No effect: every canvas point shows itself, and nothing is painted over it.
vec2 kiosk_effect(vec2 canvasUV) {
    return canvasUV;
}

vec3 kiosk_effect_paint(vec2 canvasUV, vec3 rgb) {
    return rgb;
}
