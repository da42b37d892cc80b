// No transition: the layer shows its own picture everywhere, fully.
vec3 kiosk_transition(vec2 canvasUV) {
    return vec3(canvasUV, 1.0);
}
