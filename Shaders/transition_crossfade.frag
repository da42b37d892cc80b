// Crossfade: the outgoing item stays; the incoming one covers it with alpha p.
vec3 kiosk_transition(vec2 canvasUV) {
    return vec3(canvasUV, u_transitionRole == 1 ? u_progress : 1.0);
}
