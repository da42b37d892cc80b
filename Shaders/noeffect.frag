// No effect: every canvas point shows itself.
vec2 kiosk_effect(vec2 canvasUV) {
    return canvasUV;
}
