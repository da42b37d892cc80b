// Fade through the background: the outgoing item has alpha 1 - 2p (first half), the incoming one 2p - 1 (second
// half), each over the cleared background.
vec3 kiosk_transition(vec2 canvasUV) {
    float a = u_transitionRole == 1 ? 2.0 * u_progress - 1.0 : 1.0 - 2.0 * u_progress;
    return vec3(canvasUV, clamp(a, 0.0, 1.0));
}
